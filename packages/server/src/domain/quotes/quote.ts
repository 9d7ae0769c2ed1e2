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
}

/** CAMBIO_QUOTE_TTL_MS: the price is held from `now` for ttlMs. */
export const quoteExpiry = (now: Date, ttlMs: number): Date => new Date(now.getTime() + ttlMs);
