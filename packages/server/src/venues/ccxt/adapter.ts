import type { Exchange } from 'ccxt';
import type { OrderBook, VenueRules } from '../../domain/market/book-pricing.ts';
import { readDecimal, rat, sub, ZERO } from '../../domain/market/decimal-text.ts';
import type { Rational } from '../../domain/market/rational.ts';
import type { VenueDeposit } from '../../usecases/ports.ts';

/**
 * What differs from one exchange to the next, behind one interface (docs/market.md "Exchanges"): each
 * module reads the exchange's own JSON through CCXT's implicit API methods, so every price, quantity and
 * fee is the exchange's decimal text, read exactly (CCXT's unified structures are floats and are never
 * used for money). What is common (the book walk, the rationals, the order's life after an unknown
 * outcome, retries) lives in ccxt-venue.ts and domain/market, written once.
 */

/** A spot market of the venue, with the rules an order must meet. */
export interface VenueMarket {
  /** The exchange's own id of the market (BTCUSDT, XXBTZUSD, BTC-USDT). */
  id: string;
  /** CCXT's unified symbol (BTC/USDT). */
  symbol: string;
  base: string;
  quote: string;
  rules: VenueRules;
  tickSize: Rational;
}

/** A fee the venue charged for an order, in the asset it charged it in, on top of the report's figures. */
export interface VenueCommission {
  amount: Rational;
  asset: string;
}

/** What the venue says about one order of ours, its figures read exactly. */
export interface VenueOrderReport {
  venueOrderId: string;
  /** `open`: still working (or not yet known to have ended); `filled`: all of it; `ended`: it ended short (part or none of it filled). */
  state: 'open' | 'filled' | 'ended';
  /** The exchange's own word for it (FILLED, closed, canceled…), shown to the desk. */
  status: string;
  /** Base quantity traded. */
  executedQty: Rational;
  /** Quote quantity traded, before fees. */
  quoteQty: Rational;
  /** The fees charged on the order (the venue's answer or its trades), in the asset charged. */
  commissions: VenueCommission[];
}

/** A network of a coin as the venue withdraws it: its fee (taken out of the amount sent) and whether withdrawals are open. */
export interface WithdrawNetwork {
  fee: Rational;
  enabled: boolean;
}

/**
 * What the venue says of one withdrawal. Binance's status: 0 email sent, 2 awaiting approval, 4
 * processing (pending); 6 completed; 1 cancelled, 3 rejected, 5 failure (ended, nothing left).
 */
export interface VenueWithdrawalReport {
  id: string;
  status: number;
  txid: string;
  /** The network fee the venue took, when it says. */
  fee: Rational | null;
  info: string;
}

/** Crypto withdrawals sent by the venue account, looked up by our own id (venue-withdrawals.ts). */
export interface WithdrawalApi {
  network(ex: Exchange, coin: string, network: string): Promise<WithdrawNetwork | null>;
  apply(
    ex: Exchange,
    w: { coin: string; network: string; address: string; memo: string | null; amountText: string; withdrawOrderId: string },
  ): Promise<string>;
  byOrderId(ex: Exchange, coin: string, withdrawOrderId: string): Promise<VenueWithdrawalReport | null>;
}

/** What an exchange's API lets Cambio do, beyond prices and market orders (docs/market.md "Exchanges"). */
export interface ExchangeCapabilities {
  /** Deposit addresses and deposit history: wallets with `"source": "venue"`. */
  deposits: boolean;
  /** Crypto withdrawals sent by the venue account; without it they wait for the desk's payout. */
  cryptoWithdrawals: boolean;
}

export interface ExchangeAdapter {
  /** CCXT's exchange id. */
  readonly id: string;
  readonly capabilities: ExchangeCapabilities;
  /** The credentials the exchange signs with beyond the key and secret (OKX's passphrase). */
  readonly needsPassword: boolean;
  /** The client order id sent for one of our order ids: the id itself where the exchange's alphabet and length allow it. */
  clientOrderId(orderId: string): string;
  loadMarkets(ex: Exchange): Promise<Map<string, VenueMarket>>;
  /** Bids and asks best first, as the venue's decimal text read exactly; levels with no quantity dropped. */
  fetchBook(ex: Exchange, m: VenueMarket, depth: number): Promise<OrderBook>;
  /**
   * A market order with our client order id: selling, `amountText` is the base quantity; buying, the
   * quote amount spent. Returns what the venue says of it once placed (the exchange may need a lookup
   * for its figures). A refusal throws CCXT's error class for it (InsufficientFunds, InvalidOrder…).
   */
  submitOrder(ex: Exchange, m: VenueMarket, side: 'sell' | 'buy', amountText: string, clientOrderId: string): Promise<VenueOrderReport>;
  /**
   * The order with our client order id, its fees included when it is filled. Throws CCXT's
   * OrderNotFound only when the venue answers that it has no such order; anything else is unknown.
   */
  lookupOrder(ex: Exchange, m: VenueMarket, clientOrderId: string): Promise<VenueOrderReport>;
  /** What the account holds of each asset (free + locked), by the asset's unified code. */
  fetchBalances(ex: Exchange): Promise<Map<string, Rational>>;
  /** The account's deposit history since `sinceMs` (needs capabilities.deposits). */
  fetchDeposits(ex: Exchange, sinceMs: number): Promise<VenueDeposit[]>;
  /** The account's deposit address of a coin on a network; `tag` is '' when the address needs none (needs capabilities.deposits). */
  fetchDepositAddress(ex: Exchange, coin: string, network: string): Promise<{ address: string; tag: string }>;
  /** Present with capabilities.cryptoWithdrawals. */
  readonly withdrawals?: WithdrawalApi;
}

export type Raw = Record<string, unknown>;

/** Calls one of CCXT's implicit API methods (the exchange's raw endpoint), its answer the exchange's JSON. */
export function call(ex: Exchange, method: string, params: Record<string, unknown>): Promise<unknown> {
  const fn = (ex as unknown as Record<string, ((p: object) => Promise<unknown>) | undefined>)[method];
  if (typeof fn !== 'function') throw new Error(`CCXT ${ex.id} has no method ${method}`);
  return fn.call(ex, params);
}

/** Decimal text that may carry a sign ("-0.0012", OKX's fees): exact, negative when it says so. */
export function readSigned(text: unknown, what: string): Rational {
  if (typeof text === 'string' && text.trim().startsWith('-')) return sub(ZERO, readDecimal(text.trim().slice(1), what));
  return readDecimal(text, what);
}

/** Decimal text that may be missing or empty: zero then. */
export function readOrZero(text: unknown, what: string): Rational {
  return text === undefined || text === null || text === '' ? ZERO : readDecimal(text, what);
}

/** 10^-n as a rational: a step given as a number of decimals (Kraken's lot_decimals). */
export function stepOfDecimals(n: unknown, what: string): Rational {
  const d = typeof n === 'number' ? n : typeof n === 'string' && /^[0-9]{1,2}$/.test(n) ? Number(n) : NaN;
  if (!Number.isInteger(d) || d < 0 || d > 36) throw new Error(`the venue's ${what} is not a number of decimals: ${JSON.stringify(n)}`);
  return rat(1n, 10n ** BigInt(d));
}

/**
 * Networks: a venue wallet names its network as Binance does (BTC, ETH, TRX, SOL…, docs/market.md); each
 * exchange writes it its own way ("Tether USD (TRC20)", "USDT-TRC20", "ethereum"). A table per exchange
 * gives, for each such name, the words the exchange uses for it, upper case, the more specific first.
 */
export type NetworkWords = ReadonlyArray<readonly [network: string, words: readonly string[]]>;

const scoreOf = (exchangeName: string, words: readonly string[]): number => {
  const n = exchangeName.toUpperCase();
  if (words.includes(n)) return 3;
  if (words.some((w) => n.includes(`(${w})`))) return 2;
  return words.some((w) => n.includes(w)) ? 1 : 0;
};

/** Of the exchange's names, the one for `network` (best match first); undefined when none is. */
export function pickNetwork(exchangeNames: string[], network: string, table: NetworkWords): string | undefined {
  const words = table.find(([n]) => n === network.toUpperCase())?.[1] ?? [network.toUpperCase()];
  let best: { name: string; score: number } | undefined;
  for (const name of exchangeNames) {
    const score = scoreOf(name, words);
    if (score > 0 && (!best || score > best.score)) best = { name, score };
  }
  return best?.name;
}

/** The network name a wallet uses for an exchange's own name of it; the exchange's name when the table has none. */
export function networkOf(exchangeName: string, table: NetworkWords): string {
  let best: { network: string; score: number } | undefined;
  for (const [network, words] of table) {
    const score = scoreOf(exchangeName, words);
    if (score > 0 && (!best || score > best.score)) best = { network, score };
  }
  return best?.network ?? exchangeName;
}
