import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { table } from '../output.ts';
import { filtersOf, printList, REQUEST_STATES, withFilters, withListOptions, type ListFlags } from './list-options.ts';

export function register(program: Command, ctx: Ctx): void {
  withFilters(withListOptions(program.command('orders').description('exchange requests, newest first')), REQUEST_STATES).action(
    async (flags: ListFlags) => {
      const c = ctx.sdk();
      await printList(
        ctx,
        flags,
        (p) => c.orders.list({ ...p, ...filtersOf(flags) }),
        () => c.orders.iterate(filtersOf(flags)),
        (items) =>
          table(
            ['ORDER', 'STATE', 'DELIVER', 'RECEIVE', 'CREATED', 'REASON'],
            items.map((o) => [o.id, o.state, o.base, o.quote, o.createdAt, o.reason]),
          ),
      );
    },
  );
}
