/** The small interfaces the domain depends on. Implementations: store/, market/, and the ones below. */
import type { MarketPair } from './market/pair-terms.ts';
import type { BookPrice } from './market/best-offer.ts';

export interface Clock {
  now(): Date;
}

export interface Ids {
  /** A new unique id with a readable prefix, e.g. `ord_…`. */
  next(prefix: string): string;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can move: starts at `start` and only moves when told. */
export class ManualClock implements Clock {
  #t: number;
  constructor(start = Date.parse('2026-01-01T00:00:00Z')) {
    this.#t = start;
  }
  now() {
    return new Date(this.#t);
  }
  advance(ms: number) {
    this.#t += ms;
  }
  set(d: Date) {
    this.#t = d.getTime();
  }
}

/** One exchange at the market: sell `amountBaseMinor` of base for quote, on behalf of one order. */
export interface ExecutionRequest {
  orderId: string;
  baseSymbol: string;
  quoteSymbol: string;
  amountBaseMinor: bigint;
  /** The order's decimals (a venue's answer is truncated to them). */
  baseDecimals: number;
  quoteDecimals: number;
  /** What the order owes the client: the venue refuses to fill for less (the platform never pays out more than it receives). */
  minProceedsQuoteMinor: bigint;
  /** The venue the order was quoted at (several venues, docs/market.md): it executes there, nowhere else. */
  venue?: string | null;
}
/** A fill, with where it happened when a real venue executed it (the exchange id and its order id). */
/**
 * What the venue did with an order. `costs`: fees the venue charged in assets other than the pair's
 * quote (Binance's BNB discount), in each asset's minimum units: the platform's cost, booked apart.
 */
export type Execution =
  | {
      filled: true;
      proceedsQuoteMinor: bigint;
      venue?: string;
      venueReference?: string;
      costs?: Array<{ assetSymbol: string; amountMinor: bigint }>;
    }
  | { filled: false; reason: string };

/**
 * The market's prices (docs/design/money-and-states.md), what quoting needs. Execution and the venue's books sit behind
 * the venue port (usecases/ports.ts), which extends this.
 */
export interface Market {
  /** The pair as the market prices it now, with the decimals it reports; null when it is not priced. */
  pair(baseSymbol: string, quoteSymbol: string): Promise<MarketPair | null>;
  /**
   * Prices a pair whose terms name a venue market (terms.venue) from that venue's order book (docs/market.md). Absent when this market has no book to read: such a pair is then unavailable.
   */
  priceFromBook?(pair: MarketPair, amount: { base: bigint } | { quote: bigint }): Promise<BookPrice>;
}
