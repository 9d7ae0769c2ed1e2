import { DomainError } from '../errors.ts';
import { BPS, type PairTerms } from '../market/pair-terms.ts';
import { ceilDiv, floorDiv } from '../market/rational.ts';
import { formatUnits, MAX_DIGITS, pow10 } from '../money.ts';

/**
 * The pricing rule of docs/design/money-and-states.md, exact: bigint and the rational midRate m = num/den, never a float.
 * Every floor is a single division of the whole product, so nothing is rounded twice.
 */
export interface Decimals {
  base: number;
  quote: number;
}

/** rateQuoteMinor = floor(m × (1 − spreadBps/10⁴) × 10^dq): quote minor units per one whole base unit. */
export function offeredRate(t: PairTerms, dq: number): bigint {
  return floorDiv(t.midRate.num * (BPS - BigInt(t.spreadBps)) * pow10(dq), t.midRate.den * BPS);
}

/** amountQuoteMinor = floor(a × rateQuoteMinor / 10^db). */
export function quoteForBase(a: bigint, rate: bigint, db: number): bigint {
  return floorDiv(a * rate, pow10(db));
}

/**
 * The smallest a with floor(a × rate / 10^db) ≥ q. For an integer q, floor(x) ≥ q ⇔ x ≥ q, so
 * a = ceil(q × 10^db / rate). Needs rate > 0.
 */
export function baseForQuote(q: bigint, rate: bigint, db: number): bigint {
  return ceilDiv(q * pow10(db), rate);
}

/** What the venue pays for a: floor(a × m × (1 − feeBps/10⁴) × 10^dq / 10^db) − fixedFeeQuoteMinor (may be negative). */
export function venueProceeds(a: bigint, t: PairTerms, d: Decimals): bigint {
  const gross = floorDiv(a * t.midRate.num * (BPS - BigInt(t.feeBps)) * pow10(d.quote), t.midRate.den * BPS * pow10(d.base));
  return gross - t.fixedFeeQuoteMinor;
}

export interface PricedQuote {
  rateQuoteMinor: bigint;
  amountBaseMinor: bigint;
  amountQuoteMinor: bigint;
  proceedsQuoteMinor: bigint;
}

const MAX_AMOUNT = pow10(MAX_DIGITS) - 1n;

/**
 * Prices a quote from exactly one amount. Refusals, in the order a caller can act on them:
 * no usable rate → quotes.quote_below_executable_rate; a outside the pair's range (or so small that it
 * would receive nothing) → quotes.amount_out_of_range; the venue would pay less than the client
 * receives → quotes.quote_below_executable_rate.
 */
/**
 * The base amounts a quote accepts now: from the pair's minimum, or from the smallest amount that
 * receives one quote unit when that is larger, to the pair's maximum. Null when no amount is
 * quotable (no usable rate, or the range is empty). These are the bounds that
 * quotes.amount_out_of_range states, so publishing them (GET /api/v1/market/pairs) tells a client
 * nothing a refused quote would not.
 */
export function quotableRange(t: PairTerms, d: Decimals): { rate: bigint; min: bigint; max: bigint } | null {
  const rate = offeredRate(t, d.quote);
  if (rate === 0n) return null;
  // Below this base amount the client would receive zero quote units: not a trade.
  const smallestPaying = baseForQuote(1n, rate, d.base);
  const min = t.minBaseMinor > smallestPaying ? t.minBaseMinor : smallestPaying;
  return min > t.maxBaseMinor ? null : { rate, min, max: t.maxBaseMinor };
}

export function priceQuote(t: PairTerms, d: Decimals, amount: { base: bigint } | { quote: bigint }, baseSymbol = ''): PricedQuote {
  const range = quotableRange(t, d);
  if (!range) throw new DomainError('quotes.quote_below_executable_rate');
  const { rate, min } = range;
  const a = 'base' in amount ? amount.base : baseForQuote(amount.quote, rate, d.base);
  const outOfRange = () =>
    new DomainError('quotes.amount_out_of_range', {
      min: min.toString(),
      max: t.maxBaseMinor.toString(),
      asset: baseSymbol,
      minUnits: formatUnits(min, d.base),
      maxUnits: formatUnits(t.maxBaseMinor, d.base),
      bound: '',
      limite: '',
    });
  if (a < min || a > t.maxBaseMinor) throw outOfRange();
  const q = quoteForBase(a, rate, d.base);
  if (q > MAX_AMOUNT) throw outOfRange();
  const proceeds = venueProceeds(a, t, d);
  if (q > proceeds) throw new DomainError('quotes.quote_below_executable_rate');
  return { rateQuoteMinor: rate, amountBaseMinor: a, amountQuoteMinor: q, proceedsQuoteMinor: proceeds };
}
