import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { table } from '../output.ts';

/** `cambio operator wallets list`: the deposit wallet of each asset. */
export function register(wallets: Command, ctx: Ctx): void {
  wallets.command('list').action(async () => {
    const list = await ctx.operator().wallets.list();
    ctx.print(list, () =>
      table(
        ['ASSET', 'NETWORK', 'ADDRESS'],
        list.map((w) => [w.assetSymbol, w.network, w.address]),
      ),
    );
  });
}
