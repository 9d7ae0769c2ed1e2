import type { Command } from 'commander';
import { UsageError } from '../config.ts';
import { symbolArg, wholeNumber, type Ctx } from '../context.ts';
import { operatorAmount } from './operator-helpers.ts';
import { pairText } from './operator-render.ts';

interface PairFlags {
  midRate: string;
  spreadBps: number;
  feeBps: number;
  fixedFee: string;
  min: string;
  max: string;
}

/** `cambio operator pairs put`: price a pair; amounts are decimals of the asset they are in. */
export function register(pairs: Command, ctx: Ctx): void {
  pairs
    .command('put <base> <quote>')
    .description('price a pair; amounts are decimals of the asset they are in')
    .requiredOption('--mid-rate <decimal>', 'whole QUOTE per whole BASE, e.g. 65000.00')
    .option('--spread-bps <n>', 'spread in basis points', wholeNumber, 0)
    .option('--fee-bps <n>', 'venue fee in basis points', wholeNumber, 0)
    .option('--fixed-fee <decimal>', 'fixed venue fee in QUOTE', '0')
    .requiredOption('--min <decimal>', 'smallest BASE amount')
    .requiredOption('--max <decimal>', 'largest BASE amount')
    .action(async (baseArg: string, quoteArg: string, f: PairFlags) => {
      const op = ctx.operator();
      const base = symbolArg(baseArg);
      const quote = symbolArg(quoteArg);
      if (!/^[0-9]+(\.[0-9]+)?$/.test(f.midRate)) throw new UsageError('--mid-rate must be a decimal, e.g. 65000.00');
      const p = await op.market.putPair(base, quote, {
        midRate: f.midRate,
        spreadBps: f.spreadBps,
        feeBps: f.feeBps,
        fixedFeeQuoteMinor: await operatorAmount(op, quote, f.fixedFee),
        minBaseMinor: await operatorAmount(op, base, f.min),
        maxBaseMinor: await operatorAmount(op, base, f.max),
      });
      ctx.print(p, () => pairText(p));
    });
}
