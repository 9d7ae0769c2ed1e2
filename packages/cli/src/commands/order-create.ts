import type { Order } from '@cambio/sdk';
import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { formatMinor } from '@cambio/sdk';
import { kv } from '../output.ts';

export const orderLines = (o: Order): Array<[string, unknown]> => [
  ['order', o.id],
  ['state', o.state],
  ['deliver', o.base],
  ['receive', o.quote],
  ['rate', `${formatMinor(o.rateQuoteMinor, o.quote.assetDecimals)} ${o.quote.assetSymbol} per ${o.base.assetSymbol}`],
  ['quote', o.quoteId],
  ...(o.reason ? [['reason', o.reason] as [string, unknown]] : []),
  ['created at', o.createdAt],
];

export function register(program: Command, ctx: Ctx): void {
  program
    .command('order <quoteId>')
    .description('accept a quote: creates an exchange request and holds the amount until the operator approves it')
    .action(async (quoteId: string) => {
      const r = await ctx.sdk().orders.create({ quoteId });
      ctx.reportOutcome(r, 'order');
      ctx.print(
        r.data,
        () => `${kv(orderLines(r.data))}\n\nnothing has moved yet: a person at the operator approves it (see: cambio orders)`,
      );
    });
}
