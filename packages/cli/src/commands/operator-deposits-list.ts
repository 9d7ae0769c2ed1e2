import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { table } from '../output.ts';
import { withListOptions } from './list-options.ts';

/** `cambio operator deposits list`: arrivals, credited or waiting for attribution. */
export function register(deposits: Command, ctx: Ctx): void {
  withListOptions(deposits.command('list').description('newest first').option('--state <state>', 'credited or unattributed')).action(
    async (f: { state?: 'credited' | 'unattributed'; page?: number; limit?: number }) => {
      const p = await ctx.operator().deposits.list(f);
      ctx.print(p.items, () =>
        table(
          ['DEPOSIT', 'STATE', 'AMOUNT', 'ORGANIZATION', 'TXID', 'CREATED'],
          p.items.map((d) => [d.id, d.state, d.money, d.organizationId, d.txid, d.createdAt]),
        ),
      );
    },
  );
}
