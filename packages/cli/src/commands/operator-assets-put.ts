import type { Command } from 'commander';
import { UsageError } from '../config.ts';
import { symbolArg, type Ctx } from '../context.ts';
import { kv } from '../output.ts';

/** `cambio operator assets put`: list an asset with its decimals. */
export function register(assets: Command, ctx: Ctx): void {
  assets
    .command('put <symbol> <decimals>')
    .description('list an asset with its decimals (and its kind: fiat takes bank accounts, crypto addresses)')
    .option('--kind <kind>', 'fiat or crypto')
    .action(async (symbol: string, decimals: string, f: { kind?: string }) => {
      if (!/^[0-9]{1,9}$/.test(decimals)) throw new UsageError(`decimals must be a whole number (got ${JSON.stringify(decimals)})`);
      if (f.kind !== undefined && f.kind !== 'fiat' && f.kind !== 'crypto') throw new UsageError('--kind must be fiat or crypto');
      const a = await ctx.operator().market.putAsset(symbolArg(symbol), Number(decimals), f.kind);
      ctx.print(a, () =>
        kv([
          ['asset', a.symbol],
          ['decimals', a.decimals],
          ['kind', a.kind ?? 'any'],
        ]),
      );
    });
}
