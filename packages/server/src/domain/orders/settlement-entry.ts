import { PLATFORM, type Entry, type Posting } from '../ledger/entry.ts';
import type { Order } from './order.ts';

/**
 * The settlement of a filled order, one balanced entry over both assets:
 * base: the held amount leaves to the market (platform `market` +a: it holds a less there);
 * quote: the venue's proceeds arrive (`market` −proceeds), the client gets q, and the difference
 * (spread and fees net of the venue's cost) is the platform's revenue.
 */
export function orderSettlementEntry(
  o: Pick<Order, 'id' | 'organizationId' | 'baseSymbol' | 'amountBase' | 'quoteSymbol' | 'amountQuote'>,
  proceeds: bigint,
): Entry {
  const postings: Posting[] = [
    { ownerId: o.organizationId, assetSymbol: o.baseSymbol, kind: 'held', amount: -o.amountBase },
    { ownerId: PLATFORM, assetSymbol: o.baseSymbol, kind: 'market', amount: o.amountBase },
    { ownerId: PLATFORM, assetSymbol: o.quoteSymbol, kind: 'market', amount: -proceeds },
    { ownerId: o.organizationId, assetSymbol: o.quoteSymbol, kind: 'available', amount: o.amountQuote },
  ];
  const revenue = proceeds - o.amountQuote;
  if (revenue !== 0n) postings.push({ ownerId: PLATFORM, assetSymbol: o.quoteSymbol, kind: 'revenue', amount: revenue });
  return { kind: 'order_settlement', organizationId: o.organizationId, referenceId: o.id, memo: null, postings };
}

/**
 * A fee the venue charged for an order's fill in an asset other than the pair's quote (Binance's BNB
 * discount), in an entry of its own: the platform holds that much less at the market, and it is the
 * platform's cost (negative revenue). The client's amounts do not change.
 */
export function venueFeeEntry(orderId: string, costs: Array<{ assetSymbol: string; amountMinor: bigint }>): Entry | null {
  const postings: Posting[] = costs
    .filter((c) => c.amountMinor > 0n)
    .flatMap((c) => [
      { ownerId: PLATFORM, assetSymbol: c.assetSymbol, kind: 'market' as const, amount: c.amountMinor },
      { ownerId: PLATFORM, assetSymbol: c.assetSymbol, kind: 'revenue' as const, amount: -c.amountMinor },
    ]);
  return postings.length ? { kind: 'venue_fee', organizationId: null, referenceId: orderId, memo: null, postings } : null;
}
