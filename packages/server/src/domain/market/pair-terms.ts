import { DomainError } from '../errors.ts';
import { parseDecimalRational, type Rational } from './rational.ts';

/** How the market prices one pair (docs/operator-guide.md PUT /market/pairs, docs/design/money-and-states.md). */
export interface PairTerms {
  /** Whole quote units per one whole base unit, as the operator wrote it (kept for display). */
  midRateText: string;
  midRate: Rational;
  spreadBps: number;
  feeBps: number;
  fixedFeeQuoteMinor: bigint;
  minBaseMinor: bigint;
  maxBaseMinor: bigint;
  /**
   * Set when the pair is priced from a venue's order book (docs/market.md) instead of a midRate: the
   * venue's market (CCXT's unified symbol, e.g. "BTC/USDT") and how old its book may be. The midRate
   * is then zero and its text empty.
   */
  venue?: VenuePricing | undefined;
}

export interface VenuePricing {
  symbol: string;
  maxBookAgeMs: number;
}
export const DEFAULT_MAX_BOOK_AGE_MS = 2000;

export interface ListedAsset {
  symbol: string;
  decimals: number;
}

/** A priced pair with the decimals the market reports for each side. */
export interface MarketPair {
  base: ListedAsset;
  quote: ListedAsset;
  terms: PairTerms;
}

export const BPS = 10_000n;

const invalid = (detail: string) => new DomainError('market.invalid_pair', { detail });

/** Validates the operator's pair body; every refusal is market.invalid_pair with what is wrong. */
export function parsePairTerms(
  base: string,
  quote: string,
  r: {
    midRate?: string | undefined;
    source?: string | undefined;
    venueSymbol?: string | undefined;
    maxBookAgeMs?: number | undefined;
    spreadBps: number;
    feeBps: number;
    fixedFeeQuoteMinor: bigint;
    minBaseMinor: bigint;
    maxBaseMinor: bigint;
  },
): PairTerms {
  if (base === quote) throw invalid('base and quote must be different assets');
  const venue = venuePricing(r);
  const midRate = venue ? { num: 0n, den: 1n } : parseDecimalRational(r.midRate ?? '');
  if (!midRate) throw invalid('midRate must be a decimal string such as "65000.25"');
  if (!venue && midRate.num === 0n) throw invalid('midRate must be greater than zero');
  // A spread or fee of 100% or more would price everything at zero or below.
  if (!Number.isInteger(r.spreadBps) || r.spreadBps < 0 || r.spreadBps >= 10_000)
    throw invalid('spreadBps must be an integer from 0 to 9999');
  if (!Number.isInteger(r.feeBps) || r.feeBps < 0 || r.feeBps >= 10_000) throw invalid('feeBps must be an integer from 0 to 9999');
  if (r.fixedFeeQuoteMinor < 0n) throw invalid('fixedFeeQuoteMinor must not be negative');
  if (r.minBaseMinor < 1n) throw invalid('minBaseMinor must be at least 1');
  if (r.maxBaseMinor < r.minBaseMinor) throw invalid('maxBaseMinor must not be below minBaseMinor');
  return {
    midRateText: venue ? '' : r.midRate!,
    midRate,
    venue,
    spreadBps: r.spreadBps,
    feeBps: r.feeBps,
    fixedFeeQuoteMinor: r.fixedFeeQuoteMinor,
    minBaseMinor: r.minBaseMinor,
    maxBaseMinor: r.maxBaseMinor,
  };
}

/** `{source: "venue", venueSymbol, maxBookAgeMs?}` or a midRate, never both. */
function venuePricing(r: {
  midRate?: string | undefined;
  source?: string | undefined;
  venueSymbol?: string | undefined;
  maxBookAgeMs?: number | undefined;
}): VenuePricing | undefined {
  if (r.source === undefined || r.source === 'static') {
    if (r.venueSymbol !== undefined || r.maxBookAgeMs !== undefined)
      throw invalid('venueSymbol and maxBookAgeMs go with "source": "venue"');
    return undefined;
  }
  if (r.source !== 'venue') throw invalid('source must be "venue" (priced from the venue\'s order book) or left out (priced by midRate)');
  if (r.midRate !== undefined) throw invalid('a pair priced from the venue takes no midRate');
  if (r.venueSymbol === undefined || !/^[A-Z0-9]{1,20}\/[A-Z0-9]{1,20}$/.test(r.venueSymbol))
    throw invalid('venueSymbol must be the venue\'s market such as "BTC/USDT"');
  const age = r.maxBookAgeMs ?? DEFAULT_MAX_BOOK_AGE_MS;
  if (!Number.isInteger(age) || age < 100 || age > 60_000) throw invalid('maxBookAgeMs must be an integer from 100 to 60000');
  return { symbol: r.venueSymbol, maxBookAgeMs: age };
}
