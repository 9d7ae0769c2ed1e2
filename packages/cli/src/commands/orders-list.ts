import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { table } from '../output.ts';
import { printList, withListOptions, type ListFlags } from './list-options.ts';

export function register(program: Command, ctx: Ctx): void {
  withListOptions(program.command('orders').description('exchange requests, newest first'))
    .action(async (flags: ListFlags) => {
      const c = ctx.sdk();
      await printList(ctx, flags, (p) => c.orders.list(p), () => c.orders.iterate(), (items) => table(['ORDER', 'STATE', 'DELIVER', 'RECEIVE', 'CREATED', 'REASON'],
        items.map((o) => [o.id, o.state, o.base, o.quote, o.createdAt, o.reason])));
    });
}
