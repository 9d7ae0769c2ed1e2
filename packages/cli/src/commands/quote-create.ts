import { formatMinor, type Quote } from '@cambio/sdk';
import type { Command } from 'commander';
import { UsageError } from '../config.ts';
import { amountArg, symbolArg, wholeNumber, type Ctx } from '../context.ts';
import { kv, money } from '../output.ts';

interface Flags {
  sell?: string;
  receive?: string;
  decimals?: number;
}

export const quoteLines = (q: Quote): Array<[string, unknown]> => [
  ['quote', q.id],
  ['you deliver', money(q.base)],
  ['you receive', money(q.quote)],
  ['rate', `${formatMinor(q.rateQuoteMinor, q.quote.assetDecimals)} ${q.quote.assetSymbol} per ${q.base.assetSymbol}`],
  ['expires at', q.expiresAt],
];

export function register(program: Command, ctx: Ctx): void {
  program
    .command('quote <base> <quote>')
    .description('price an exchange: deliver BASE, receive QUOTE (commits to nothing, moves nothing)')
    .option('--sell <amount>', 'how much BASE to deliver, as a decimal (e.g. 0.5)')
    .option('--receive <amount>', 'how much QUOTE to receive, as a decimal (e.g. 100)')
    .option('--decimals <n>', "decimals of the amount's asset, only when the organization holds none of it", wholeNumber)
    .action(async (baseArg: string, quoteArg: string, f: Flags) => {
      if ((f.sell === undefined) === (f.receive === undefined)) throw new UsageError('give exactly one of --sell and --receive');
      const baseSymbol = symbolArg(baseArg);
      const quoteSymbol = symbolArg(quoteArg);
      const selling = f.sell !== undefined;
      const symbol = selling ? baseSymbol : quoteSymbol;
      const text = (f.sell ?? f.receive)!;
      const c = ctx.sdk();
      const ask = (decimals: number) => {
        const amount = amountArg(text, decimals);
        return c.quotes.create(
          selling ? { baseSymbol, quoteSymbol, amountBaseMinor: amount } : { baseSymbol, quoteSymbol, amountQuoteMinor: amount },
        );
      };
      // Only a priced pair can be quoted: said so, with the pairs that are, before anything else is asked.
      const pairs = await c.market.pairs();
      const pair = pairs.find((p) => p.baseSymbol === baseSymbol && p.quoteSymbol === quoteSymbol);
      if (!pair) {
        const priced = pairs.map((p) => `${p.baseSymbol}/${p.quoteSymbol}`).join(', ');
        throw new UsageError(
          `${baseSymbol}/${quoteSymbol} is not priced; ${priced ? `the priced pairs are ${priced} (cambio pairs)` : 'no pair is priced at the moment'}`,
        );
      }
      const pairDecimals = selling ? pair.baseDecimals : pair.quoteDecimals;
      if (f.decimals !== undefined && f.decimals !== pairDecimals)
        throw new UsageError(`${symbol} has ${pairDecimals} decimals, not ${f.decimals}`);
      const used = pairDecimals;
      let q = await ask(used);
      // The quote carries the decimals the market reports; a quote commits nothing, so a mismatch is asked again.
      const reported = (selling ? q.base : q.quote).assetDecimals;
      if (reported !== used) {
        ctx.note(`note: the API reports ${reported} decimals for ${symbol}, not ${used}; quoting again`);
        q = await ask(reported);
      }
      ctx.print(q, () => `${kv(quoteLines(q))}\n\naccept it with: cambio order ${q.id}`);
    });
}
