import type { Command } from 'commander';
import { UsageError } from '../config.ts';
import { symbolArg, type Ctx } from '../context.ts';
import { kv } from '../output.ts';

/** `cambio operator assets put`: list an asset with its decimals. */
export function register(assets: Command, ctx: Ctx): void {
  assets
    .command('put <symbol> <decimals>')
    .description('list an asset with its decimals')
    .action(async (symbol: string, decimals: string) => {
      if (!/^[0-9]{1,9}$/.test(decimals)) throw new UsageError(`decimals must be a whole number (got ${JSON.stringify(decimals)})`);
      const a = await ctx.operator().market.putAsset(symbolArg(symbol), Number(decimals));
      ctx.print(a, () =>
        kv([
          ['asset', a.symbol],
          ['decimals', a.decimals],
        ]),
      );
    });
}
