import { DomainError } from '../errors.ts';
import { formatUnits, MAX_DIGITS, pow10 } from '../money.ts';
import type { PricedQuote } from '../quotes/pricing.ts';
import { add, cmp, div, fromMinor, minR, mul, rat, sub, toDecimalText, ZERO } from './decimal-text.ts';
import { BPS } from './pair-terms.ts';
import type { Rational } from './rational.ts';

/** One level of a venue's book: price in the venue market's quote per one whole base, quantity in whole base. */
export interface BookLevel {
  price: Rational;
  qty: Rational;
}
/** Bids best (highest) first, asks best (lowest) first, as the venue answered them. */
export interface OrderBook {
  bids: BookLevel[];
  asks: BookLevel[];
}

/**
 * Which way the platform trades at the venue for a pair: `sell` when the pair's base is the venue
 * market's base (it sells into the bids), `buy` when the pair's base is the venue market's quote (it
 * spends it on the asks).
 */
export type VenueSide = 'sell' | 'buy';

/** The venue market's rules that decide whether an order could execute (Binance: LOT_SIZE, NOTIONAL). */
export interface VenueRules {
  /** Base quantity step and minimum (a sell's amount). */
  baseStep: Rational;
  minBaseQty: Rational;
  /** Step of a quote-currency amount (a buy spends it: quoteOrderQty). */
  quoteStep: Rational;
  /** Smallest order value in the venue's quote currency. */
  minNotional: Rational;
}

export interface BookTerms {
  spreadBps: number;
  feeBps: number;
  fixedFeeQuoteMinor: bigint;
  minBaseMinor: bigint;
  maxBaseMinor: bigint;
}
export interface Decimals {
  base: number;
  quote: number;
}

export interface BookQuoteInput {
  book: OrderBook;
  side: VenueSide;
  rules: VenueRules;
  terms: BookTerms;
  decimals: Decimals;
  /** Symbols for the refusal's message. */
  baseSymbol: string;
  venueQuoteSymbol: string;
}

/**
 * The book's levels in the pair's own terms: each level's price in pair-quote per whole pair-base and
 * how much pair-base it takes. Selling, that is the bid itself; buying, a level of p (venue quote per
 * venue base) with quantity q takes p×q of the pair's base and gives 1/p of the pair's quote per unit.
 */
function levels(book: OrderBook, side: VenueSide): Array<{ px: Rational; cap: Rational }> {
  return side === 'sell'
    ? book.bids.map((l) => ({ px: l.price, cap: l.qty }))
    : book.asks.map((l) => ({ px: div(rat(1n), l.price), cap: mul(l.price, l.qty) }));
}

/** gross = Σ px_i × min(cap_i, remaining), best first; null when the book cannot take all of A. */
export function walkBook(book: OrderBook, side: VenueSide, A: Rational): Rational | null {
  let remaining = A;
  let gross = ZERO;
  for (const l of levels(book, side)) {
    if (remaining.num === 0n) break;
    const take = minR(l.cap, remaining);
    gross = add(gross, mul(l.px, take));
    remaining = sub(remaining, take);
  }
  return remaining.num === 0n ? gross : null;
}

/** The smallest number of minor units of which every multiple is a whole multiple of `step` (whole units). */
function gridOf(step: Rational, decimals: number): bigint {
  if (step.num === 0n) return 1n;
  // A = k / 10^d is a multiple of step = sn/sd  ⇔  k·sd / (10^d·sn) is whole.
  const top = pow10(decimals) * step.num;
  let [a, b] = [top, step.den];
  while (b !== 0n) [a, b] = [b, a % b];
  return top / a;
}

const MAX_AMOUNT = pow10(MAX_DIGITS) - 1n;

type Priced = PricedQuote | { refused: 'thin' | 'step' | 'min_qty' | 'min_notional' | 'range' | 'below' };

/** docs/market.md for one base amount a, or why not. */
function priceAt(x: BookQuoteInput, a: bigint): Priced {
  const { book, side, rules, terms, decimals: d } = x;
  if (a < terms.minBaseMinor || a > terms.maxBaseMinor) return { refused: 'range' };
  const A = fromMinor(a, d.base);
  const step = side === 'sell' ? rules.baseStep : rules.quoteStep;
  if (a % gridOf(step, d.base) !== 0n) return { refused: 'step' };
  if (side === 'sell' && cmp(A, rules.minBaseQty) < 0) return { refused: 'min_qty' };
  const gross = walkBook(book, side, A);
  if (!gross) return { refused: 'thin' };
  // The order's value in the venue's quote currency: what a sell receives, what a buy spends.
  const notional = side === 'sell' ? gross : A;
  if (cmp(notional, rules.minNotional) < 0) return { refused: 'min_notional' };
  // rate = floor(vwap × (1 − s) × 10^dq), vwap = gross / A = gross × 10^db / a: one floor of the whole product.
  const rate = (gross.num * pow10(d.base) * (BPS - BigInt(terms.spreadBps)) * pow10(d.quote)) / (gross.den * a * BPS);
  if (rate === 0n) return { refused: 'below' };
  const q = (a * rate) / pow10(d.base);
  if (q === 0n || q > MAX_AMOUNT) return { refused: 'range' };
  const proceeds = (gross.num * (BPS - BigInt(terms.feeBps)) * pow10(d.quote)) / (gross.den * BPS) - terms.fixedFeeQuoteMinor;
  if (q > proceeds) return { refused: 'below' };
  return { rateQuoteMinor: rate, amountBaseMinor: a, amountQuoteMinor: q, proceedsQuoteMinor: proceeds };
}

function refusal(x: BookQuoteInput, why: Exclude<Priced, PricedQuote>['refused']): DomainError {
  if (why === 'below') return new DomainError('quotes.quote_below_executable_rate');
  const { terms, decimals: d, rules, side } = x;
  const unitsOf = (r: Rational) => toDecimalText(r) ?? '?';
  const step = unitsOf(side === 'sell' ? rules.baseStep : rules.quoteStep);
  const [bound, limite] = {
    range: ['', ''],
    thin: ["; the market's order book cannot fill that amount now", '; el libro de órdenes del mercado no puede cubrir ese monto ahora'],
    step: [
      `; the market takes amounts in steps of ${step} ${x.baseSymbol}`,
      `; el mercado acepta montos en pasos de ${step} ${x.baseSymbol}`,
    ],
    min_qty: [
      `; the market's smallest amount is ${unitsOf(rules.minBaseQty)} ${x.baseSymbol}`,
      `; el monto mínimo del mercado es ${unitsOf(rules.minBaseQty)} ${x.baseSymbol}`,
    ],
    min_notional: [
      `; the market's smallest order is worth ${unitsOf(rules.minNotional)} ${x.venueQuoteSymbol}`,
      `; la orden mínima del mercado vale ${unitsOf(rules.minNotional)} ${x.venueQuoteSymbol}`,
    ],
  }[why];
  return new DomainError('quotes.amount_out_of_range', {
    min: terms.minBaseMinor.toString(),
    max: terms.maxBaseMinor.toString(),
    asset: x.baseSymbol,
    minUnits: formatUnits(terms.minBaseMinor, d.base),
    maxUnits: formatUnits(terms.maxBaseMinor, d.base),
    bound: bound!,
    limite: limite!,
  });
}

/**
 * Prices a quote from the venue's book (docs/market.md), exactly: rationals from the venue's decimal text,
 * every floor one division of the whole product. By base amount: that amount. By quote amount: the
 * smallest base amount on the venue's step grid whose amountQuoteMinor reaches it.
 */
export function priceFromBook(x: BookQuoteInput, amount: { base: bigint } | { quote: bigint }): PricedQuote {
  if ('base' in amount) {
    const p = priceAt(x, amount.base);
    if ('refused' in p) throw refusal(x, p.refused);
    return p;
  }
  const q = amount.quote;
  const grid = gridOf(x.side === 'sell' ? x.rules.baseStep : x.rules.quoteStep, x.decimals.base);
  let lo = (x.terms.minBaseMinor + grid - 1n) / grid;
  let hi = x.terms.maxBaseMinor / grid;
  if (lo > hi) throw refusal(x, 'range');
  // Enough: a thin book, or an amount that receives at least q. The received amount grows with a
  // (each more unit sells at a price above zero; the rate's floor can only shave one unit of it), so
  // the first enough amount is found by halving.
  const enough = (n: bigint): boolean => {
    const p = priceAt(x, n * grid);
    if (!('refused' in p)) return p.amountQuoteMinor >= q;
    if (p.refused === 'thin') return true;
    // Too small to trade (minimum quantity or notional, nothing received): more is needed.
    if (p.refused === 'min_qty' || p.refused === 'min_notional') return false;
    const A = fromMinor(n * grid, x.decimals.base);
    const gross = walkBook(x.book, x.side, A);
    return gross !== null && (gross.num * pow10(x.decimals.quote)) / gross.den >= q;
  };
  if (!enough(hi)) throw refusal(x, 'range');
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (enough(mid)) hi = mid;
    else lo = mid + 1n;
  }
  const p = priceAt(x, lo * grid);
  if ('refused' in p) throw refusal(x, p.refused);
  return p;
}
