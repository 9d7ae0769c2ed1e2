import { DomainError } from '../errors.ts';
import type { Quote } from '../quotes/quote.ts';
import type { Limits } from '../organizations/organization.ts';

/** docs/design/money-and-states.md: pending_approval → approved → completed | failed; pending_approval → rejected, or cancelled by its organization. */
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
  /**
   * Where it executes (the venue it was quoted at, when priced from venues' books, docs/market.md) or the
   * desk executed it, and the venue's reference (production, docs/design/money-and-states.md); null in sandbox.
   */
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

/** A quote as an order accepting it reads it, in the order's transaction: whether it was used, and the market's current decimals of its assets. */
export interface QuoteToAccept {
  quote: Quote;
  consumed: boolean;
  marketDecimals: { base: number | null; quote: number | null };
}

/**
 * The rules of accepting a quote (docs/design/money-and-states.md), in the order the wire promises, after the reconciliation
 * stop and before the balance (the hold checks it): the quote is the organization's (another's is none),
 * unused, unexpired and in the market's current decimals (a quote priced in old ones is void, as if
 * expired), and its base amount within the organization's cap for that asset.
 */
export function checkAcceptance(q: QuoteToAccept | null, limits: Limits, now: Date): Quote {
  if (!q) throw new DomainError('orders.quote_not_found');
  const { quote } = q;
  if (q.consumed) throw new DomainError('orders.quote_already_used');
  const current = q.marketDecimals.base === quote.baseDecimals && q.marketDecimals.quote === quote.quoteDecimals;
  if (quote.expiresAt <= now || !current) throw new DomainError('orders.quote_expired');
  const cap = limits?.[quote.baseSymbol]?.maxOrderMinor;
  if (cap !== undefined && quote.amountBaseMinor > cap) throw new DomainError('orders.limit_exceeded', { asset: quote.baseSymbol });
  return quote;
}

/** The order that accepting `quote` creates: pending approval, its base amount held by `holdId`. */
export const orderOf = (quote: Quote, id: string, holdId: string, at: Date): Order => ({
  id,
  organizationId: quote.organizationId,
  quoteId: quote.id,
  holdId,
  state: 'pending_approval',
  baseSymbol: quote.baseSymbol,
  baseDecimals: quote.baseDecimals,
  amountBase: quote.amountBaseMinor,
  quoteSymbol: quote.quoteSymbol,
  quoteDecimals: quote.quoteDecimals,
  amountQuote: quote.amountQuoteMinor,
  rateQuoteMinor: quote.rateQuoteMinor,
  proceedsQuote: null,
  reason: null,
  // Quoted at a venue (docs/market.md): it executes there and nowhere else.
  venue: quote.venue,
  venueReference: null,
  createdAt: at,
  updatedAt: at,
});
