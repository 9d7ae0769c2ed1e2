import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { table } from '../output.ts';

export function register(withdraw: Command, ctx: Ctx): void {
  withdraw
    .command('destinations')
    .description('registered destinations, masked; only a usable one can receive a withdrawal')
    .action(async () => {
      const list = await ctx.sdk().withdrawals.destinations();
      ctx.print(list, () =>
        table(
          ['DESTINATION', 'LABEL', 'ASSET', 'KIND', 'NETWORK', 'SUMMARY', 'USABLE'],
          list.map((d) => [d.id, d.label, d.assetSymbol, d.kind, d.network ?? '', d.summary, d.usable ? 'yes' : 'no']),
        ),
      );
    });
}
