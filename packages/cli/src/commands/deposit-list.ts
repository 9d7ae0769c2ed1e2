import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { table } from '../output.ts';
import { printList, withListOptions, type ListFlags } from './list-options.ts';

export function register(deposit: Command, ctx: Ctx): void {
  withListOptions(deposit.command('list').description('deposits that arrived, newest first'))
    .action(async (flags: ListFlags) => {
      const c = ctx.sdk();
      await printList(ctx, flags, (p) => c.deposits.list(p), () => c.deposits.iterate(), (items) => table(['DEPOSIT', 'STATE', 'AMOUNT', 'NETWORK', 'TXID', 'CREATED'],
        items.map((d) => [d.id, d.state, d.money, d.network, d.txid, d.createdAt])));
    });
}
