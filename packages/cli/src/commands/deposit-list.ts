import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { table } from '../output.ts';
import { filtersOf, printList, withFilters, withListOptions, type ListFlags } from './list-options.ts';

export function register(deposit: Command, ctx: Ctx): void {
  withFilters(withListOptions(deposit.command('list').description('deposits that arrived, newest first')), [
    'credited',
    'unattributed',
  ]).action(async (flags: ListFlags) => {
    const c = ctx.sdk();
    await printList(
      ctx,
      flags,
      (p) => c.deposits.list({ ...p, ...filtersOf(flags) }),
      () => c.deposits.iterate(filtersOf(flags)),
      (items) =>
        table(
          ['DEPOSIT', 'STATE', 'AMOUNT', 'NETWORK', 'TXID', 'CREATED'],
          items.map((d) => [d.id, d.state, d.money, d.network, d.txid, d.createdAt]),
        ),
    );
  });
}
