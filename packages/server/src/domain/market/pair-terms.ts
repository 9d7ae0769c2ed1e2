import { DomainError } from '../errors.ts';
import { parseDecimalRational, type Rational } from './rational.ts';

/** How the market prices one pair (CONTRACT §3 PUT /market/pairs, §4). */
export interface PairTerms {
  /** Whole quote units per one whole base unit, as the operator wrote it (kept for display). */
  midRateText: string;
  midRate: Rational;
  spreadBps: number;
  feeBps: number;
  fixedFeeQuoteMinor: bigint;
  minBaseMinor: bigint;
  maxBaseMinor: bigint;
}

export interface ListedAsset { symbol: string; decimals: number }

/** A priced pair with the decimals the market reports for each side. */
export interface MarketPair { base: ListedAsset; quote: ListedAsset; terms: PairTerms }

export const BPS = 10_000n;

const invalid = (detail: string) => new DomainError('market.invalid_pair', { detail });

/** Validates the operator's pair body; every refusal is market.invalid_pair with what is wrong. */
export function parsePairTerms(base: string, quote: string, r: {
  midRate: string; spreadBps: number; feeBps: number; fixedFeeQuoteMinor: bigint; minBaseMinor: bigint; maxBaseMinor: bigint;
}): PairTerms {
  if (base === quote) throw invalid('base and quote must be different assets');
  const midRate = parseDecimalRational(r.midRate);
  if (!midRate) throw invalid('midRate must be a decimal string such as "65000.25"');
  if (midRate.num === 0n) throw invalid('midRate must be greater than zero');
  // A spread or fee of 100% or more would price everything at zero or below.
  if (!Number.isInteger(r.spreadBps) || r.spreadBps < 0 || r.spreadBps >= 10_000) throw invalid('spreadBps must be an integer from 0 to 9999');
  if (!Number.isInteger(r.feeBps) || r.feeBps < 0 || r.feeBps >= 10_000) throw invalid('feeBps must be an integer from 0 to 9999');
  if (r.fixedFeeQuoteMinor < 0n) throw invalid('fixedFeeQuoteMinor must not be negative');
  if (r.minBaseMinor < 1n) throw invalid('minBaseMinor must be at least 1');
  if (r.maxBaseMinor < r.minBaseMinor) throw invalid('maxBaseMinor must not be below minBaseMinor');
  return { midRateText: r.midRate, midRate, spreadBps: r.spreadBps, feeBps: r.feeBps, fixedFeeQuoteMinor: r.fixedFeeQuoteMinor, minBaseMinor: r.minBaseMinor, maxBaseMinor: r.maxBaseMinor };
}
