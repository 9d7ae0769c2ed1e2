import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { table } from '../output.ts';

export function register(deposit: Command, ctx: Ctx): void {
  deposit
    .command('wallets')
    .description('where to send each asset; send on the network shown, a transfer on another chain cannot be recovered')
    .action(async () => {
      const wallets = await ctx.sdk().deposits.wallets();
      ctx.print(wallets, () =>
        table(
          ['ASSET', 'NETWORK', 'ADDRESS'],
          wallets.map((w) => [w.assetSymbol, w.network, w.address]),
        ),
      );
    });
}
