import type { Limits } from '../organizations/organization.ts';

/** CONTRACT §5: pending_approval → approved → completed | failed; pending_approval → rejected, or cancelled by its organization. */
export const ORDER_STATES = ['pending_approval', 'approved', 'completed', 'rejected', 'failed', 'cancelled'] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** An exchange request: the client delivers amountBase of base and receives amountQuote of quote. */
export interface Order {
  id: string;
  organizationId: string;
  quoteId: string;
  holdId: string;
  state: OrderState;
  baseSymbol: string;
  baseDecimals: number;
  amountBase: bigint;
  quoteSymbol: string;
  quoteDecimals: number;
  amountQuote: bigint;
  rateQuoteMinor: bigint;
  /** What the venue paid; set when completed. */
  proceedsQuote: bigint | null;
  /** Why it was rejected or failed. */
  reason: string | null;
  /** Where the desk executed it and the venue's reference (production, CONTRACT §9); null in sandbox. */
  venue: string | null;
  venueReference: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The order as accepting its quote wrote it: what the organization was answered then. Every later
 * change (a decision, a settlement) moves only the state, the reason, the execution and `updatedAt`.
 */
export const asCreated = (o: Order): Order => ({
  ...o,
  state: 'pending_approval',
  reason: null,
  proceedsQuote: null,
  venue: null,
  venueReference: null,
  updatedAt: o.createdAt,
});

/** CONTRACT §3: `maxOrderMinor` caps the base amount of one order in that asset; absent means no cap. As a list, for the statement that accepts the quote. */
export function orderCaps(limits: Limits): Array<{ asset: string; cap: bigint }> {
  return Object.entries(limits ?? {}).flatMap(([asset, c]) => (c.maxOrderMinor !== undefined ? [{ asset, cap: c.maxOrderMinor }] : []));
}
