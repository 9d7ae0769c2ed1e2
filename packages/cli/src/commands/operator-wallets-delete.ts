import type { Command } from 'commander';
import { symbolArg, type Ctx } from '../context.ts';

/** `cambio operator wallets delete`: the platform can no longer receive the asset. */
export function register(wallets: Command, ctx: Ctx): void {
  wallets
    .command('delete <symbol>')
    .description('the platform can no longer receive the asset')
    .action(async (symbol: string) => {
      const w = await ctx.operator().wallets.delete(symbolArg(symbol));
      ctx.print(w, () => `removed: ${w.assetSymbol} on ${w.network}`);
    });
}
