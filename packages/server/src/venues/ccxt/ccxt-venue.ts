import { randomBytes } from 'node:crypto';
import type { Exchange } from 'ccxt';
import type { Logger } from 'pino';
import { priceFromBook } from '../../domain/market/book-pricing.ts';
import { add, ceilToMinor, sub, toDecimalText, truncateToMinor, ZERO } from '../../domain/market/decimal-text.ts';
import { DomainError } from '../../domain/errors.ts';
import type { MarketPair } from '../../domain/market/pair-terms.ts';
import type { Rational } from '../../domain/market/rational.ts';
import { formatDecimal } from '../../domain/money.ts';
import type { Clock, Execution, ExecutionRequest } from '../../domain/ports.ts';
import type { PricedQuote } from '../../domain/quotes/pricing.ts';
import type {
  Venue,
  VenueBestLevels,
  VenueCustody,
  VenueDeposit,
  VenueExecutions,
  VenueHealth,
  VenueMarketData,
  VenueMarketListing,
  VenueStatus,
} from '../../usecases/ports.ts';
import type { ExchangeAdapter, VenueMarket, VenueOrderReport } from './adapter.ts';
import { adapterFor } from './adapters.ts';
import { BookCache } from './book-cache.ts';
import { classifyVenueError, venueErrorLabel } from './errors.ts';
import type { VenueCost, VenueOrderRow, VenueOrdersRepository } from '../../usecases/orders/venue-orders-repository.ts';
import type { MarketAsset, PricedPair } from '../../usecases/repositories.ts';
import type { VenueWithdrawalsRepository } from '../../usecases/withdrawals/venue-withdrawals-repository.ts';
import { CcxtWithdrawals } from './venue-withdrawals.ts';

/** How old a held book may be when staff ask for a market's best levels before pricing a pair from it. */
const BEST_LEVELS_MAX_AGE_MS = 5_000;

export interface CcxtVenueOptions {
  /** The venue's name, what its orders record as their venue (several venues, docs/market.md); the exchange id when absent. */
  name?: string;
  /** Binance's recvWindow sent with every signed request: after it, a request that never arrived cannot execute any more. */
  recvWindowMs: number;
  /** How long one instance holds an order's row while it talks to the venue. */
  leaseMs?: number;
  /** Levels of the book read per request. */
  bookDepth?: number;
  logger?: Logger | undefined;
  /** Counts venue errors by kind (metrics). */
  onVenueError?: (kind: string) => void;
  /**
   * A client of the same exchange without credentials, for its public market data (markets and books):
   * CCXT paces each client's requests, and a book must not wait behind the account's signed calls (Kraken
   * paces those seconds apart). Absent: `ex` reads them too.
   */
  marketData?: Exchange | undefined;
}

const MARKETS_TTL_MS = 3_600_000;

/**
 * What the CCXT venue reads and writes in this database, each a narrow port (docs/design/server-layers.md,
 * "Ports"), built from the store once in venues/index.ts: the venue runs no SQL of its own.
 */
export interface CcxtVenuePorts {
  /** The market's pairs: a pair's terms name its venue market. */
  pairs: { get(base: string, quote: string): Promise<PricedPair | null>; list(): Promise<PricedPair[]> };
  /** The listed assets and their decimals (balances and fees in a third asset are read in them). */
  assets: { get(symbol: string): Promise<MarketAsset | null>; list(): Promise<MarketAsset[]> };
  orders: VenueOrdersRepository;
  withdrawals: VenueWithdrawalsRepository;
}

const unavailable = (detail: string) => new DomainError('market.unavailable', { detail });

/**
 * Production at an exchange through CCXT (docs/market.md). Quotes of pairs with `source: venue` are priced
 * from the venue's order book; an approved order is sent as a market order with the order's id as the
 * client order id and settled from the venue's exact answer. When the answer is lost the order stays
 * `approved`: the next attempt (recoverApproved) looks it up by its client id and sends it again only
 * after the venue says it does not exist and the first request's recvWindow has passed. Withdrawals to
 * crypto addresses are sent by the venue account the same way (cryptoPayouts, venue-withdrawals.ts);
 * withdrawals to bank accounts wait for the desk's payout.
 */
export class CcxtVenue implements Venue {
  readonly kind = 'ccxt';
  readonly paysOutOnApproval = false;
  readonly books: BookCache;
  readonly orders: VenueOrdersRepository;
  readonly cryptoPayouts?: CcxtWithdrawals;
  /** The exchange's own module: what it reads and how (adapter.ts). */
  readonly adapter: ExchangeAdapter;
  readonly marketData: VenueMarketData = {
    markets: () => this.#listMarkets(),
    checkPair: (base, quote, symbol) => this.checkPair(base, quote, symbol),
    keepFresh: (recentMs) => this.books.poll(recentMs),
    bestLevels: (symbol) => this.#bestLevels(symbol),
  };
  readonly custody: VenueCustody = {
    depositAddress: (coin, network) => this.depositAddress(coin, network),
    deposits: (sinceMs) => this.deposits(sinceMs),
    balances: () => this.#balances(),
  };
  readonly executions: VenueExecutions = { list: (p) => this.orders.list(p) };
  readonly #owner = `inst_${randomBytes(6).toString('hex')}`;
  #markets: { at: number; byS: Promise<Map<string, VenueMarket>> } | null = null;
  readonly #leaseMs: number;
  readonly #depth: number;

  constructor(
    private readonly ex: Exchange,
    private readonly ports: CcxtVenuePorts,
    private readonly clock: Clock,
    private readonly opts: CcxtVenueOptions,
  ) {
    this.#leaseMs = opts.leaseMs ?? 30_000;
    this.#depth = opts.bookDepth ?? 100;
    this.orders = ports.orders;
    this.adapter = adapterFor(ex.id);
    // Crypto withdrawals are the venue's only where its adapter sends them; else they wait for the desk.
    if (this.adapter.withdrawals)
      this.cryptoPayouts = new CcxtWithdrawals(ex, this.adapter.withdrawals, ports.withdrawals, clock, {
        recvWindowMs: opts.recvWindowMs,
        leaseMs: this.#leaseMs,
        owner: this.#owner,
        logger: opts.logger,
        onAnswer: () => this.#answered(),
        onError: (where, err) => this.#venueError(where, err),
      });
    this.books = new BookCache(async (marketId) => {
      const m = [...(await this.#marketsNow()).values()].find((x) => x.id === marketId);
      if (!m) throw new Error(`no venue market ${marketId}`);
      try {
        const book = await this.adapter.fetchBook(this.opts.marketData ?? this.ex, m, this.#depth);
        this.#answered();
        return book;
      } catch (err) {
        this.#venueError('book', err);
        throw err;
      }
    }, clock);
  }

  /** The exchange id. */
  get exchangeId(): string {
    return this.ex.id;
  }

  /** The venue's name, written as the order's `venue` (the exchange id unless CAMBIO_VENUES names it). */
  get name(): string {
    return this.opts.name ?? this.ex.id;
  }

  pair(baseSymbol: string, quoteSymbol: string): Promise<MarketPair | null> {
    return this.ports.pairs.get(baseSymbol, quoteSymbol);
  }

  readonly #errors = new Map<string, number>();
  #lastError: VenueStatus['lastError'] = null;
  #lastSuccessAt: Date | null = null;
  readonly #executionListeners: Array<(seconds: number) => void> = [];

  observeExecutions(listener: (seconds: number) => void): void {
    this.#executionListeners.push(listener);
  }

  /** The venue answered a request (its health for the desk). */
  #answered(): void {
    this.#lastSuccessAt = this.clock.now();
  }

  /** The venue's health, last error and the book held behind each venue-priced pair. */
  async status(): Promise<VenueStatus> {
    const [pairs, watch] = await Promise.all([this.ports.pairs.list(), this.orders.watch()]);
    const markets = await this.#marketsNow().catch(() => null);
    const now = this.clock.now().getTime();
    const text = (r: Rational | undefined) => (r === undefined ? null : toDecimalText(r));
    const failing = this.#lastError !== null && (this.#lastSuccessAt === null || this.#lastError.at >= this.#lastSuccessAt);
    return {
      name: this.name,
      exchange: this.ex.id,
      health: failing ? 'failing' : this.#lastSuccessAt ? 'ok' : 'idle',
      lastSuccessAt: this.#lastSuccessAt,
      lastError: this.#lastError,
      errors: [...this.#errors].map(([kind, count]) => ({ kind, count })).sort((a, b) => (a.kind < b.kind ? -1 : 1)),
      awaitingOutcome: watch.awaitingOutcome,
      partialFills: watch.partial,
      pairs: pairs.flatMap((p) => {
        const v = p.terms.venue;
        if (!v) return [];
        const m = markets?.get(v.symbol);
        const held = m ? this.books.held(m.id) : undefined;
        const age = held ? now - held.receivedAt : null;
        return [
          {
            baseSymbol: p.base.symbol,
            quoteSymbol: p.quote.symbol,
            venueSymbol: v.symbol,
            maxBookAgeMs: v.maxBookAgeMs,
            bookAgeMs: age,
            fresh: age !== null && age <= v.maxBookAgeMs,
            bestBid: text(held?.book.bids[0]?.price),
            bestBidQty: text(held?.book.bids[0]?.qty),
            bestAsk: text(held?.book.asks[0]?.price),
            bestAskQty: text(held?.book.asks[0]?.qty),
          },
        ];
      }),
    };
  }

  async health(): Promise<VenueHealth> {
    return { bookAgesMs: this.books.ages(), errors: new Map(this.#errors), awaitingOutcome: await this.orders.awaitingOutcome() };
  }

  #venueError(where: string, err: unknown) {
    const kind = `${where}:${venueErrorLabel(err)}`;
    this.#errors.set(kind, (this.#errors.get(kind) ?? 0) + 1);
    this.#lastError = { kind, detail: classifyVenueError(err).reason.slice(0, 300), at: this.clock.now() };
    this.opts.onVenueError?.(kind);
    this.opts.logger?.warn({ venue: this.name, kind, detail: classifyVenueError(err).reason }, 'venue request failed');
  }

  #marketsNow(): Promise<Map<string, VenueMarket>> {
    const now = this.clock.now().getTime();
    if (!this.#markets || now - this.#markets.at > MARKETS_TTL_MS) {
      const byS = this.adapter.loadMarkets(this.opts.marketData ?? this.ex);
      this.#markets = { at: now, byS };
      // A failed read is not kept: the next call tries again.
      byS.catch((err: unknown) => {
        if (this.#markets?.byS === byS) this.#markets = null;
        this.#venueError('markets', err);
      });
    }
    return this.#markets.byS;
  }

  /** The venue's spot markets, by symbol, with their steps as exact decimal text. */
  async #listMarkets(): Promise<VenueMarketListing[]> {
    let markets: Map<string, VenueMarket>;
    try {
      markets = await this.#marketsNow();
    } catch {
      throw unavailable("the venue's markets could not be read");
    }
    const text = (r: Rational) => toDecimalText(r) ?? '0';
    return [...markets.values()]
      .map((m) => ({
        symbol: m.symbol,
        baseSymbol: m.base,
        quoteSymbol: m.quote,
        amountStep: text(m.rules.baseStep),
        priceStep: text(m.tickSize),
        minNotional: m.rules.minNotional.num > 0n ? text(m.rules.minNotional) : null,
      }))
      .sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  }

  /** The venue market of a venue symbol; market.unavailable when the venue cannot be read. */
  async market(symbol: string): Promise<VenueMarket | null> {
    try {
      return (await this.#marketsNow()).get(symbol) ?? null;
    } catch {
      throw unavailable("the venue's markets could not be read");
    }
  }

  /** Which way the platform trades for a pair on a venue market; null when the pair is not that market's two assets. */
  static sideFor(base: string, quote: string, m: VenueMarket): 'sell' | 'buy' | null {
    if (base === m.base && quote === m.quote) return 'sell';
    if (base === m.quote && quote === m.base) return 'buy';
    return null;
  }

  /** Checks, when a pair is priced from the venue, that the venue trades exactly its two assets there. */
  /** The top of `symbol`'s book, a held one when a few seconds old at most, else read now (docs/market.md). */
  async #bestLevels(symbol: string): Promise<VenueBestLevels[]> {
    const m = await this.market(symbol);
    if (!m) throw new DomainError('market.venue_unknown_symbol', { symbol });
    const held = await this.books.get(m.id, BEST_LEVELS_MAX_AGE_MS);
    if (!held) throw unavailable(`no ${symbol} book could be read`);
    const text = (r: Rational | undefined) => (r === undefined ? null : toDecimalText(r));
    return [
      {
        venue: this.name,
        symbol,
        bookAgeMs: Math.max(0, this.clock.now().getTime() - held.receivedAt),
        bestBid: text(held.book.bids[0]?.price),
        bestBidQty: text(held.book.bids[0]?.qty),
        bestAsk: text(held.book.asks[0]?.price),
        bestAskQty: text(held.book.asks[0]?.qty),
      },
    ];
  }

  async checkPair(base: string, quote: string, symbol: string): Promise<void> {
    const m = await this.market(symbol);
    if (!m || !CcxtVenue.sideFor(base, quote, m)) throw new DomainError('market.venue_unknown_symbol', { symbol, base, quote });
  }

  async priceFromBook(pair: MarketPair, amount: { base: bigint } | { quote: bigint }): Promise<PricedQuote> {
    const v = pair.terms.venue;
    if (!v) throw unavailable('the pair is not priced from the venue');
    const m = await this.market(v.symbol);
    const side = m && CcxtVenue.sideFor(pair.base.symbol, pair.quote.symbol, m);
    if (!m || !side) throw unavailable(`the venue no longer trades ${v.symbol}`);
    const held = await this.books.get(m.id, v.maxBookAgeMs);
    if (!held) throw unavailable(`no ${v.symbol} book younger than ${v.maxBookAgeMs} ms`);
    return priceFromBook(
      {
        book: held.book,
        side,
        rules: m.rules,
        terms: pair.terms,
        decimals: { base: pair.base.decimals, quote: pair.quote.decimals },
        baseSymbol: pair.base.symbol,
        venueQuoteSymbol: m.quote,
      },
      amount,
    );
  }

  /**
   * Sends the order once and reads its outcome (docs/market.md). Null while the outcome is not known, or
   * when a partial fill waits for the desk; the row in venue_orders says where it stands.
   */
  async execute(r: ExecutionRequest): Promise<Execution | null> {
    const prior = await this.orders.get(r.orderId);
    if (prior && !['new', 'sending', 'unknown'].includes(prior.state)) return this.#outcomeOf(prior);
    let init = prior;
    if (!init) {
      const pair = await this.ports.pairs.get(r.baseSymbol, r.quoteSymbol);
      const v = pair?.terms.venue;
      if (!v) return { filled: false, reason: `the market no longer prices ${r.baseSymbol}/${r.quoteSymbol} from the venue` };
      let m: VenueMarket | null;
      try {
        m = await this.market(v.symbol);
      } catch {
        return null;
      }
      const side = m && CcxtVenue.sideFor(r.baseSymbol, r.quoteSymbol, m);
      if (!m || !side) return { filled: false, reason: `the venue does not trade ${v.symbol}` };
      init = {
        orderId: r.orderId,
        venue: this.name,
        venueSymbol: v.symbol,
        side,
        amountText: formatDecimal(r.amountBaseMinor, r.baseDecimals),
        state: 'new',
        attempts: 0,
        sentAt: null,
        recvWindowMs: this.opts.recvWindowMs,
        venueOrderId: null,
        executedQty: null,
        quoteQty: null,
        proceedsQuoteMinor: null,
        reason: null,
        costs: [],
      };
    }
    const now = this.clock.now();
    const row = await this.orders.claim(init, this.#owner, now, new Date(now.getTime() + this.#leaseMs));
    if (!row) {
      const cur = await this.orders.get(r.orderId);
      return cur ? this.#outcomeOf(cur) : null;
    }
    try {
      return await this.#work(row, r.quoteDecimals);
    } catch (err) {
      await this.orders.release(r.orderId, this.#owner);
      throw err;
    }
  }

  async #work(row: VenueOrderRow, quoteDecimals: number): Promise<Execution | null> {
    let m: VenueMarket | null;
    try {
      m = await this.market(row.venueSymbol);
    } catch {
      m = null;
    }
    if (!m) {
      await this.orders.release(row.orderId, this.#owner);
      return null;
    }
    if (row.state === 'sending' || row.state === 'unknown') {
      // Sent before with no answer we kept: ask the venue what became of it.
      try {
        const found = await this.adapter.lookupOrder(this.ex, m, this.adapter.clientOrderId(row.orderId));
        this.#answered();
        return await this.#record(row, m, found, quoteDecimals, row.sentAt);
      } catch (err) {
        const c = classifyVenueError(err);
        this.#venueError('lookup', err);
        const sentAt = row.sentAt?.getTime() ?? 0;
        // A second order is sent only when the venue says there is none and the first request can no
        // longer arrive in time to execute (its recvWindow, and a second of clock slack, have passed).
        const late = this.clock.now().getTime() > sentAt + row.recvWindowMs + 1000;
        if (c.kind !== 'not_found' || !late) {
          await this.orders.settle(row.orderId, this.#owner, this.clock.now(), { state: 'unknown' });
          return null;
        }
      }
    }
    const sentAt = this.clock.now();
    if (!(await this.orders.markSending(row.orderId, this.#owner, sentAt))) return null;
    try {
      const answer = await this.adapter.submitOrder(this.ex, m, row.side, row.amountText, this.adapter.clientOrderId(row.orderId));
      this.#answered();
      return await this.#record(row, m, answer, quoteDecimals, sentAt);
    } catch (err) {
      const c = classifyVenueError(err);
      this.#venueError('order', err);
      if (c.kind === 'refused') {
        const reason = `the market refused the order: ${c.reason}`;
        await this.orders.settle(row.orderId, this.#owner, this.clock.now(), { state: 'refused', reason });
        this.#executed(sentAt);
        return { filled: false, reason };
      }
      await this.orders.settle(row.orderId, this.#owner, this.clock.now(), { state: 'unknown', reason: c.reason });
      this.opts.logger?.warn({ orderId: row.orderId, detail: c.reason }, 'venue order outcome unknown: it stays approved and is looked up');
      return null;
    }
  }

  /** Reads the venue's report of the order into the row, and the order's outcome from it. */
  /** An outcome became known: how long since the order was sent (the execution latency metric). */
  #executed(sentAt: Date | null): void {
    if (!sentAt) return;
    const ms = this.clock.now().getTime() - sentAt.getTime();
    const seconds = (ms > 0 ? ms : 0) / 1000;
    for (const l of this.#executionListeners) l(seconds);
  }

  async #record(
    row: VenueOrderRow,
    m: VenueMarket,
    rep: VenueOrderReport,
    quoteDecimals: number,
    sentAt: Date | null,
  ): Promise<Execution | null> {
    const at = this.clock.now();
    const figures = {
      venueOrderId: rep.venueOrderId,
      executedQty: toDecimalText(rep.executedQty) ?? '',
      quoteQty: toDecimalText(rep.quoteQty) ?? '',
    };
    if (rep.state === 'open') {
      await this.orders.settle(row.orderId, this.#owner, at, { state: 'unknown', ...figures });
      return null;
    }
    if (rep.state !== 'filled') {
      if (rep.executedQty.num > 0n) {
        // Part of it traded: the desk completes it by hand, with the venue's figures in front of it.
        await this.orders.settle(row.orderId, this.#owner, at, {
          state: 'partial',
          ...figures,
          reason: `the market filled ${figures.executedQty} of ${row.amountText} (${rep.status})`,
        });
        this.opts.logger?.warn({ orderId: row.orderId, ...figures, status: rep.status }, 'venue order partly filled: waits for the desk');
        this.#executed(sentAt);
        return null;
      }
      const reason = `the market order ended ${rep.status} with nothing filled`;
      await this.orders.settle(row.orderId, this.#owner, at, { state: 'refused', ...figures, reason });
      this.#executed(sentAt);
      return { filled: false, reason };
    }
    const commissions = rep.commissions;
    // What was received, in the pair's quote currency: a sell receives the venue's quote, a buy its base;
    // fees charged in that currency come off it.
    const receivedAsset = row.side === 'sell' ? m.quote : m.base;
    const gross: Rational = row.side === 'sell' ? rep.quoteQty : rep.executedQty;
    const fees = commissions.filter((c) => c.asset === receivedAsset).reduce((s, c) => add(s, c.amount), ZERO);
    const net = sub(gross, fees);
    const proceeds = net.num > 0n ? truncateToMinor(net, quoteDecimals) : 0n;
    // A fee in another asset (Binance's BNB discount) is the platform's cost in that asset, booked apart at
    // its decimals, rounded up so the books never count more of it at the venue than is there. An asset not
    // listed at Cambio has no decimals to book it in: the order waits, saying so, until it is listed.
    const others = new Map<string, Rational>();
    for (const c of commissions)
      if (c.asset !== receivedAsset && c.amount.num > 0n) others.set(c.asset, add(others.get(c.asset) ?? ZERO, c.amount));
    const costs: VenueCost[] = [];
    for (const [asset, amount] of [...others].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const listed = await this.ports.assets.get(asset);
      if (!listed) {
        const reason = `the venue charged its fee in ${asset}, which is not listed at Cambio: list ${asset} (PUT /operator/v1/market/assets/${asset}) and the order is booked at the next lookup`;
        await this.orders.settle(row.orderId, this.#owner, at, { state: 'unknown', ...figures, reason });
        this.opts.logger?.warn({ orderId: row.orderId, asset }, 'venue fee in an asset not listed: the order waits until it is');
        return null;
      }
      costs.push({ assetSymbol: asset, amountMinor: ceilToMinor(amount, listed.decimals) });
    }
    await this.orders.settle(row.orderId, this.#owner, at, { state: 'filled', ...figures, proceedsQuoteMinor: proceeds, costs });
    this.#executed(sentAt);
    return {
      filled: true,
      proceedsQuoteMinor: proceeds,
      venue: this.name,
      venueReference: rep.venueOrderId,
      ...(costs.length ? { costs } : {}),
    };
  }

  #outcomeOf(row: VenueOrderRow): Execution | null {
    if (row.state === 'filled' && row.proceedsQuoteMinor !== null) {
      return {
        filled: true,
        proceedsQuoteMinor: row.proceedsQuoteMinor,
        venue: row.venue,
        venueReference: row.venueOrderId ?? '',
        ...(row.costs.length ? { costs: row.costs } : {}),
      };
    }
    if (row.state === 'refused') return { filled: false, reason: row.reason ?? 'the market refused the order' };
    return null;
  }

  /**
   * The venue account's deposit address of an asset on a network. An asset that needs a memo or tag
   * there is refused: one shared address without its tag cannot tell the senders apart.
   */
  async depositAddress(coin: string, network: string): Promise<string> {
    let a: { address: string; tag: string };
    if (!this.adapter.capabilities.deposits)
      throw new DomainError('request.validation_failed', {
        detail: `${this.ex.id} gives no deposit addresses or history over its API: a venue wallet is not offered there (docs/market.md)`,
      });
    try {
      a = await this.adapter.fetchDepositAddress(this.ex, coin, network);
    } catch (err) {
      this.#venueError('deposit_address', err);
      if (classifyVenueError(err).kind === 'refused')
        throw new DomainError('request.validation_failed', {
          detail: `the venue gives no ${coin} deposit address on ${network}: ${classifyVenueError(err).reason}`,
        });
      throw unavailable("the venue's deposit address could not be read");
    }
    if (a.tag !== '')
      throw new DomainError('request.validation_failed', {
        detail: `${coin} on ${network} needs a memo or tag at the venue: not offered as a venue wallet`,
      });
    if (a.address === '')
      throw new DomainError('request.validation_failed', { detail: `the venue gives no ${coin} deposit address on ${network}` });
    return a.address;
  }

  /** The venue account's deposit history since `sinceMs`. */
  async deposits(sinceMs: number): Promise<VenueDeposit[]> {
    if (!this.adapter.capabilities.deposits) return [];
    try {
      const history = await this.adapter.fetchDeposits(this.ex, sinceMs);
      this.#answered();
      return history;
    } catch (err) {
      this.#venueError('deposits', err);
      throw err;
    }
  }

  async fundsMoved(): Promise<void> {}
  async fillSettled(): Promise<void> {}
  /**
   * The venue account's spot balances (free + locked) of every asset listed at Cambio, truncated to the
   * asset's decimals (a remainder below one minor unit is the platform's and not counted). Orders sent
   * but not yet settled make a difference of their own: run it when none is waiting for an outcome.
   */
  async #balances(): Promise<Map<string, bigint>> {
    let balances: Map<string, Rational>;
    try {
      balances = await this.adapter.fetchBalances(this.ex);
      this.#answered();
    } catch (err) {
      this.#venueError('balances', err);
      throw unavailable("the venue's balances could not be read");
    }
    const listed = await this.ports.assets.list();
    const out = new Map<string, bigint>();
    for (const a of listed) {
      const b = balances.get(a.symbol);
      if (b) out.set(a.symbol, truncateToMinor(b, a.decimals));
    }
    return out;
  }
}
