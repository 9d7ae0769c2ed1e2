import type { PricedQuote } from './pricing.ts';

/** A price held for one organization until expiresAt; accepting it consumes it (spec: Quote). */
export interface Quote extends Omit<PricedQuote, 'proceedsQuoteMinor'> {
  id: string;
  organizationId: string;
  baseSymbol: string;
  baseDecimals: number;
  quoteSymbol: string;
  quoteDecimals: number;
  expiresAt: Date;
  createdAt: Date;
  /** The venue it was priced at (a pair priced from venues' books, docs/market.md); null otherwise. */
  venue: string | null;
}

/**
 * What one connected venue offered when the quote was priced (docs/market.md, "Several venues"): its
 * figures, or the code of why it was left out; `chosen` marks the one the quote took.
 */
export interface QuoteOffer {
  venue: string;
  rateQuoteMinor: bigint | null;
  amountBaseMinor: bigint | null;
  amountQuoteMinor: bigint | null;
  proceedsQuoteMinor: bigint | null;
  leftOut: string | null;
  detail: string | null;
  chosen: boolean;
}

/** CAMBIO_QUOTE_TTL_MS: the price is held from `now` for ttlMs. */
export const quoteExpiry = (now: Date, ttlMs: number): Date => new Date(now.getTime() + ttlMs);
