import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { table } from '../output.ts';
import { filtersOf, printList, REQUEST_STATES, withFilters, withListOptions, type ListFlags } from './list-options.ts';

export function register(withdraw: Command, ctx: Ctx): void {
  withFilters(withListOptions(withdraw.command('list').description('withdrawal requests, newest first')), REQUEST_STATES).action(
    async (flags: ListFlags) => {
      const c = ctx.sdk();
      await printList(
        ctx,
        flags,
        (p) => c.withdrawals.list({ ...p, ...filtersOf(flags) }),
        () => c.withdrawals.iterate(filtersOf(flags)),
        (items) =>
          table(
            ['WITHDRAWAL', 'STATE', 'AMOUNT', 'DESTINATION', 'CREATED', 'REASON'],
            items.map((w) => [w.id, w.state, w.money, w.destinationSummary, w.createdAt, w.reason]),
          ),
      );
    },
  );
}
