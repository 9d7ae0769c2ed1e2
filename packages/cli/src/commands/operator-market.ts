import type { Pair } from '@cambio/sdk';
import type { Command } from 'commander';
import { UsageError } from '../config.ts';
import { symbolArg, wholeNumber, type Ctx } from '../context.ts';
import { kv, table } from '../output.ts';
import { operatorAmount } from './operator-helpers.ts';

const m = (symbol: string, decimals: number, amountMinor: bigint) => ({ assetSymbol: symbol, assetDecimals: decimals, amountMinor });
const pairText = (p: Pair) => kv([['pair', `${p.baseSymbol}/${p.quoteSymbol}`], ['mid rate', p.midRate], ['spread bps', p.spreadBps], ['fee bps', p.feeBps],
  ['fixed fee', m(p.quoteSymbol, p.quoteDecimals, p.fixedFeeQuoteMinor)], ['min', m(p.baseSymbol, p.baseDecimals, p.minBaseMinor)], ['max', m(p.baseSymbol, p.baseDecimals, p.maxBaseMinor)],
  ['offered rate', m(p.quoteSymbol, p.quoteDecimals, p.rateQuoteMinor)]]);

interface PairFlags { midRate: string; spreadBps: number; feeBps: number; fixedFee: string; min: string; max: string }

/** `cambio operator assets|pairs|wallets …`: what the market lists and prices, and where deposits arrive. */
export function register(operator: Command, ctx: Ctx): void {
  const assets = operator.command('assets').description('assets listed at the market, with their decimals');
  assets.command('list').action(async () => {
    const list = await ctx.operator().market.assets();
    ctx.print(list, () => table(['ASSET', 'DECIMALS'], list.map((a) => [a.symbol, a.decimals])));
  });
  assets.command('put <symbol> <decimals>').description('list an asset with its decimals').action(async (symbol: string, decimals: string) => {
    const a = await ctx.operator().market.putAsset(symbolArg(symbol), wholeNumber(decimals));
    ctx.print(a, () => kv([['asset', a.symbol], ['decimals', a.decimals]]));
  });

  const pairs = operator.command('pairs').description('pairs the market prices');
  pairs.command('list').action(async () => {
    const list = await ctx.operator().market.pairs();
    ctx.print(list, () => table(['PAIR', 'MID RATE', 'SPREAD BPS', 'FEE BPS', 'OFFERED RATE'], list.map((p) => [`${p.baseSymbol}/${p.quoteSymbol}`, p.midRate, p.spreadBps, p.feeBps, m(p.quoteSymbol, p.quoteDecimals, p.rateQuoteMinor)])));
  });
  pairs.command('put <base> <quote>').description('price a pair; amounts are decimals of the asset they are in')
    .requiredOption('--mid-rate <decimal>', 'whole QUOTE per whole BASE, e.g. 65000.00')
    .option('--spread-bps <n>', 'spread in basis points', wholeNumber, 0).option('--fee-bps <n>', 'venue fee in basis points', wholeNumber, 0)
    .option('--fixed-fee <decimal>', 'fixed venue fee in QUOTE', '0').requiredOption('--min <decimal>', 'smallest BASE amount').requiredOption('--max <decimal>', 'largest BASE amount')
    .action(async (baseArg: string, quoteArg: string, f: PairFlags) => {
      const op = ctx.operator();
      const base = symbolArg(baseArg);
      const quote = symbolArg(quoteArg);
      if (!/^[0-9]+(\.[0-9]+)?$/.test(f.midRate)) throw new UsageError('--mid-rate must be a decimal, e.g. 65000.00');
      const p = await op.market.putPair(base, quote, {
        midRate: f.midRate, spreadBps: f.spreadBps, feeBps: f.feeBps, fixedFeeQuoteMinor: await operatorAmount(op, quote, f.fixedFee),
        minBaseMinor: await operatorAmount(op, base, f.min), maxBaseMinor: await operatorAmount(op, base, f.max),
      });
      ctx.print(p, () => pairText(p));
    });
  pairs.command('delete <base> <quote>').description('no price for the pair any more').action(async (b: string, q: string) => {
    const p = await ctx.operator().market.deletePair(symbolArg(b), symbolArg(q));
    ctx.print(p, () => `no longer priced:\n${pairText(p)}`);
  });

  const wallets = operator.command('wallets').description('the deposit wallet of each asset');
  wallets.command('list').action(async () => {
    const list = await ctx.operator().wallets.list();
    ctx.print(list, () => table(['ASSET', 'NETWORK', 'ADDRESS'], list.map((w) => [w.assetSymbol, w.network, w.address])));
  });
  wallets.command('put <symbol>').description('set the wallet of an asset')
    .requiredOption('--network <chain>', 'the chain').requiredOption('--address <address>', 'the address')
    .action(async (symbol: string, f: { network: string; address: string }) => {
      const w = await ctx.operator().wallets.put(symbolArg(symbol), f);
      ctx.print(w, () => kv([['asset', w.assetSymbol], ['network', w.network], ['address', w.address]]));
    });
  wallets.command('delete <symbol>').description('the platform can no longer receive the asset').action(async (symbol: string) => {
    const w = await ctx.operator().wallets.delete(symbolArg(symbol));
    ctx.print(w, () => `removed: ${w.assetSymbol} on ${w.network}`);
  });
}
