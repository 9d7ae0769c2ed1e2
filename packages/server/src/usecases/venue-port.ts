import type { Rational } from '../domain/market/rational.ts';
import type { MarketPair } from '../domain/market/pair-terms.ts';
import type { Execution, ExecutionRequest, Market } from '../domain/ports.ts';
import type { VenueOrderListed, VenueOrderState } from './orders/venue-orders-repository.ts';
import type { Tx } from './tx.ts';

/**
 * Where orders execute and where the platform's money sits (docs/design/money-and-states.md). Three adapters,
 * chosen once in main.ts: the simulated venue (sandbox: fills at once, pays out on approval, keeps its own
 * books), the desk (production: staff execute at their venue and record the outcome) and an exchange
 * through CCXT (docs/market.md). A use case tells the venue what moved at the platform's account, inside
 * the transaction that books it, so the venue's books, when it keeps any, never disagree with the
 * platform's.
 *
 * What a venue can do beyond pricing and executing is said by its optional capabilities
 * (docs/design/server-layers.md, "Ports"): callers ask `if (venue.custody)`, never which class it is.
 */
export interface Venue extends Market {
  /** simulated (sandbox), desk (production, staff execute) or ccxt (production at an exchange, docs/market.md). */
  readonly kind: 'simulated' | 'desk' | 'ccxt';
  /** Withdrawals complete on approval (sandbox); else they wait for the desk's payout reference. */
  readonly paysOutOnApproval: boolean;
  /** Where withdrawals pay out on approval: why this amount's payout fails (the sandbox's magic amount), or null when it is paid. */
  payoutFailure?(amount: bigint): string | null;
  pair(baseSymbol: string, quoteSymbol: string): Promise<MarketPair | null>;
  /**
   * Executes now, idempotent by order id (a repeat returns the first outcome, never trades twice); null
   * when a person executes it and records the fill or the failure (the desk), or when the outcome at a
   * real venue is not known yet (it is asked again later, never sent twice).
   */
  execute(r: ExecutionRequest): Promise<Execution | null>;
  /** Money arrived at (+) or left (−) the platform's account at the venue: a deposit, an adjustment, a payout. */
  fundsMoved(tx: Tx, assetSymbol: string, amount: bigint): Promise<void>;
  /** The settlement of this order's fill is being booked in `tx`: the venue's side of the same fill. */
  fillSettled(tx: Tx, orderId: string, at: Date): Promise<void>;
  /**
   * Books kept in this database (the simulated venue): what the platform holds at the venue per asset, as
   * of `tx`, with their writers shut out until `tx` ends (call it before reading the platform's books in
   * the same transaction, so both sides are one moment). No network call.
   */
  heldInBooks?(tx: Tx): Promise<Map<string, bigint>>;
  /** An exchange's markets and order books (absent: a pair with `"source": "venue"` is refused). */
  marketData?: VenueMarketData;
  /** The platform's account at an exchange: deposit addresses, deposit history, balances. Every call is a network call. */
  custody?: VenueCustody;
  /** The orders sent to an exchange, with its figures (absent: the venue keeps no such record). */
  executions?: VenueExecutions;
  /** The venue as the desk watches it (GET /operator/v1/venue); absent: nothing to watch beyond the pairs. */
  status?(): Promise<VenueStatus>;
  /** A real venue's health for the metrics: each book's age, its errors by kind so far, orders sent whose outcome is not known. */
  health?(): Promise<VenueHealth>;
  /**
   * Present when the venue itself sends crypto withdrawals (an exchange account through CCXT): an approved
   * withdrawal to a crypto address is sent there, once, and followed to its end (docs/market.md).
   */
  cryptoPayouts?: CryptoPayouts;
  /**
   * The exchange accounts connected (docs/market.md, "Several venues"), by name in the order they are
   * listed; each is a venue of its own. Absent: a venue of one account, or none.
   */
  members?: ReadonlyArray<{ name: string; venue: Venue }>;
  /** Tells `listener` how long each order took from being sent to the venue to a known outcome, in seconds (a metric). */
  observeExecutions?(listener: (seconds: number) => void): void;
}

/** One spot market the venue trades, with its steps as exact decimal text (docs/market.md, "The venue's markets"). */
export interface VenueMarketListing {
  /** CCXT's unified symbol (BTC/USDT), what a pair's `venueSymbol` names. */
  symbol: string;
  baseSymbol: string;
  quoteSymbol: string;
  /** An order's base quantity is a multiple of this. */
  amountStep: string;
  /** The venue's prices are multiples of this (its tick). */
  priceStep: string;
  /** The smallest order the venue takes, in the quote currency; null when it sets none. */
  minNotional: string | null;
}

/** An exchange's markets and order books (docs/market.md). */
export interface VenueMarketData {
  /** The spot markets the venue trades now, by symbol; market.unavailable when they cannot be read. */
  markets(): Promise<VenueMarketListing[]>;
  /** Refuses (market.venue_unknown_symbol) a venue symbol that is not a market of exactly these two assets. */
  checkPair(baseSymbol: string, quoteSymbol: string, venueSymbol: string): Promise<void>;
  /** Reads again the books of the markets quoted within the last `recentMs` (the background poll). */
  keepFresh(recentMs: number): Promise<void>;
  /**
   * The best levels of `symbol`'s book at each venue trading it, no older than a few seconds (read now when
   * none is held): what staff see before a pair is priced from it. market.venue_unknown_symbol when no venue
   * trades it; market.unavailable when none answers.
   */
  bestLevels(symbol: string): Promise<VenueBestLevels[]>;
}

/** The top of one venue's book (docs/market.md): the venue's decimal text, null on an empty side. */
export interface VenueBestLevels {
  venue: string;
  symbol: string;
  bookAgeMs: number;
  bestBid: string | null;
  bestBidQty: string | null;
  bestAsk: string | null;
  bestAskQty: string | null;
}

/** A deposit in the venue account's history (docs/market.md): recorded as an arrival once it is completed. */
export interface VenueDeposit {
  coin: string;
  network: string;
  amount: Rational;
  txid: string;
  completed: boolean;
}

/** The platform's account at an exchange (docs/market.md). Network calls: never made inside a database transaction. */
export interface VenueCustody {
  /** The account's deposit address of an asset on a network (refused when the venue has none, or needs a memo). */
  depositAddress(coin: string, network: string): Promise<string>;
  /** The account's deposit history since `sinceMs`. */
  deposits(sinceMs: number): Promise<VenueDeposit[]>;
  /**
   * What the account holds of every asset listed at Cambio, truncated to the asset's decimals;
   * market.unavailable when the venue cannot be read.
   */
  balances(): Promise<Map<string, bigint>>;
}

/** The orders sent to an exchange, as the desk lists them (GET /operator/v1/venue/executions). */
export interface VenueExecutions {
  list(p: { state?: VenueOrderState | undefined; limit: number }): Promise<VenueOrderListed[]>;
}

/** The venue as the desk watches it (operator/routes/venue.ts). Prices and quantities are the venue's decimal text. */
export interface VenueStatus {
  /** The venue's name (what orders record as their venue). */
  name: string;
  exchange: string;
  health: 'ok' | 'failing' | 'idle';
  lastSuccessAt: Date | null;
  lastError: { kind: string; detail: string; at: Date } | null;
  errors: Array<{ kind: string; count: number }>;
  awaitingOutcome: number;
  partialFills: number;
  pairs: Array<{
    baseSymbol: string;
    quoteSymbol: string;
    venueSymbol: string;
    maxBookAgeMs: number;
    bookAgeMs: number | null;
    fresh: boolean;
    bestBid: string | null;
    bestBidQty: string | null;
    bestAsk: string | null;
    bestAskQty: string | null;
  }>;
  /** With several venues, each one's status in the order they are listed (the fields above are the first's). */
  venues?: VenueStatus[];
}

/** One approved withdrawal to a crypto address, as the venue sends it: the client receives exactly `amount`. */
export interface CryptoWithdrawalRequest {
  withdrawalId: string;
  assetSymbol: string;
  assetDecimals: number;
  amount: bigint;
  network: string;
  address: string;
  memo: string | null;
}

/**
 * How a crypto withdrawal ended at the venue: sent and confirmed with the chain's txid (`feeMinor` the
 * venue's network fee, the platform's cost, in the asset's minimum units, rounded up), or failed (nothing
 * left the venue).
 */
export type CryptoWithdrawalOutcome =
  { completed: true; txid: string; feeMinor: bigint; venue: string; venueReference: string } | { completed: false; reason: string };

/** What the desk sees of a crypto withdrawal at the venue. */
export interface CryptoWithdrawalView {
  venue: string;
  state: string;
  status: string | null;
  amount: string;
  fee: string;
  venueWithdrawalId: string | null;
  txid: string | null;
  reason: string | null;
  attempts: number;
}

export interface CryptoPayouts {
  /**
   * Sends the withdrawal once (idempotent by its id, the venue's withdraw order id) and reads how it
   * stands; null while it is not over (sent, processing, or an outcome not known yet: asked again later,
   * never sent twice).
   */
  send(r: CryptoWithdrawalRequest): Promise<CryptoWithdrawalOutcome | null>;
  /** Where each of these withdrawals stands at the venue (absent: never sent there). */
  views(withdrawalIds: string[]): Promise<Map<string, CryptoWithdrawalView>>;
}

export interface VenueHealth {
  bookAgesMs: Map<string, number>;
  errors: Map<string, number>;
  awaitingOutcome: number;
}
