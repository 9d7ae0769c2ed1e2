import { PLATFORM, type Entry, type Posting } from '../ledger/entry.ts';
import type { Order } from './order.ts';

/**
 * The settlement of a filled order, two balanced entries of one transaction. The organization's
 * (`order_settlement`) is what the client saw: its held base leaves and the quoted amount arrives, both
 * against the platform's `clearing`. The platform's own (`order_execution`, touching no organization)
 * books what the venue did: the base went to the market (`market` +base), the venue's proceeds arrived
 * (`market` −proceeds), and the difference between those and the quoted amount (spread and fees net of
 * the venue's cost) is the platform's revenue. `clearing` nets to zero over the two.
 */
export function orderSettlementEntries(
  o: Pick<Order, 'id' | 'organizationId' | 'baseSymbol' | 'amountBase' | 'quoteSymbol' | 'amountQuote'>,
  proceeds: bigint,
): [Entry, Entry] {
  const own: Entry = {
    kind: 'order_settlement',
    organizationId: o.organizationId,
    referenceId: o.id,
    memo: null,
    postings: [
      { ownerId: o.organizationId, assetSymbol: o.baseSymbol, kind: 'held', amount: -o.amountBase },
      { ownerId: PLATFORM, assetSymbol: o.baseSymbol, kind: 'clearing', amount: o.amountBase },
      { ownerId: PLATFORM, assetSymbol: o.quoteSymbol, kind: 'clearing', amount: -o.amountQuote },
      { ownerId: o.organizationId, assetSymbol: o.quoteSymbol, kind: 'available', amount: o.amountQuote },
    ],
  };
  const postings: Posting[] = [
    { ownerId: PLATFORM, assetSymbol: o.baseSymbol, kind: 'clearing', amount: -o.amountBase },
    { ownerId: PLATFORM, assetSymbol: o.baseSymbol, kind: 'market', amount: o.amountBase },
    { ownerId: PLATFORM, assetSymbol: o.quoteSymbol, kind: 'market', amount: -proceeds },
    { ownerId: PLATFORM, assetSymbol: o.quoteSymbol, kind: 'clearing', amount: o.amountQuote },
  ];
  const revenue = proceeds - o.amountQuote;
  if (revenue !== 0n) postings.push({ ownerId: PLATFORM, assetSymbol: o.quoteSymbol, kind: 'revenue', amount: revenue });
  return [own, { kind: 'order_execution', organizationId: null, referenceId: o.id, memo: null, postings }];
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
