import { bestOffer, type BookPrice, type VenueOffer } from '../domain/market/best-offer.ts';
import { DomainError } from '../domain/errors.ts';
import type { MarketPair } from '../domain/market/pair-terms.ts';
import type { Execution, ExecutionRequest } from '../domain/ports.ts';
import type { VenueOrdersRepository } from '../usecases/orders/venue-orders-repository.ts';
import type {
  Venue,
  VenueBestLevels,
  VenueCustody,
  VenueExecutions,
  VenueHealth,
  VenueMarketData,
  VenueMarketListing,
  VenueStatus,
} from '../usecases/ports.ts';

/** One connected exchange account, by the name its quotes and orders record. */
export interface NamedVenue {
  name: string;
  venue: Venue & Required<Pick<Venue, 'priceFromBook' | 'marketData'>>;
}

/**
 * Every exchange account connected at once (docs/market.md, "Several venues, best execution"), one venue
 * to the use cases. A venue-priced quote is priced at each venue concurrently and takes the best for the
 * client (domain/market/best-offer.ts), recording what each offered; an order executes at the venue it
 * was quoted at and nowhere else: the venue its row in venue_orders names once it was sent (the row is
 * unique per order, so a second instance, or a retry after a crash, asks the same venue), else the
 * order's own. With one account the set behaves as that account.
 */
export class VenueSet implements Venue {
  readonly kind = 'ccxt';
  readonly paysOutOnApproval = false;
  readonly members: readonly NamedVenue[];
  readonly #first: NamedVenue;

  constructor(
    venues: readonly NamedVenue[],
    private readonly orders: Pick<VenueOrdersRepository, 'get'>,
  ) {
    const first = venues[0];
    if (!first) throw new Error('a venue set needs one venue at least');
    this.members = venues;
    this.#first = first;
    // The first account's deposit addresses, executions and crypto payouts stand for the set where one is
    // asked for; the balances are every account's together, as the books count the market side.
    const custody = first.venue.custody;
    if (custody) this.custody = { ...custody, balances: () => this.#balances() };
    if (first.venue.executions) this.executions = first.venue.executions;
    if (first.venue.cryptoPayouts) this.cryptoPayouts = first.venue.cryptoPayouts;
  }

  readonly custody?: VenueCustody;
  readonly executions?: VenueExecutions;
  readonly cryptoPayouts?: Venue['cryptoPayouts'];

  /** What every account holds, asset by asset, summed; market.unavailable when one cannot be read. */
  async #balances(): Promise<Map<string, bigint>> {
    const each = await Promise.all(this.members.map((m) => m.venue.custody?.balances() ?? Promise.resolve(new Map<string, bigint>())));
    const sum = new Map<string, bigint>();
    for (const b of each) for (const [asset, amount] of b) sum.set(asset, (sum.get(asset) ?? 0n) + amount);
    return sum;
  }

  /** The member of this name; undefined when no such venue is connected. */
  named(name: string): NamedVenue | undefined {
    return this.members.find((m) => m.name === name);
  }

  pair(baseSymbol: string, quoteSymbol: string): Promise<MarketPair | null> {
    return this.#first.venue.pair(baseSymbol, quoteSymbol);
  }

  async priceFromBook(pair: MarketPair, amount: { base: bigint } | { quote: bigint }): Promise<BookPrice> {
    const offers: VenueOffer[] = await Promise.all(
      this.members.map(async ({ name, venue }) => {
        try {
          return { venue: name, priced: await venue.priceFromBook(pair, amount) };
        } catch (err) {
          // Down, stale, too thin, below the executable rate: left out, with the refusal's code.
          const leftOut =
            err instanceof DomainError ? err : new DomainError('market.unavailable', { detail: `the venue ${name} could not be read` });
          return { venue: name, leftOut };
        }
      }),
    );
    const best = bestOffer(offers, 'base' in amount ? 'base' : 'quote');
    return { ...best.priced, venue: best.venue, offers };
  }

  async execute(r: ExecutionRequest): Promise<Execution | null> {
    // Once sent, the row says where: the order is never sent anywhere else.
    const sent = await this.orders.get(r.orderId);
    const name = sent?.venue ?? r.venue ?? (this.members.length === 1 ? this.#first.name : null);
    const at = name === null ? undefined : this.named(name);
    if (at) return at.venue.execute(r);
    // A venue no longer connected: nothing was sent, so the order fails; something was, so it waits.
    if (sent) return null;
    return {
      filled: false,
      reason: name === null ? 'the order names no venue to execute it' : `the venue ${name} the order was quoted at is not connected`,
    };
  }

  async fundsMoved(): Promise<void> {}
  async fillSettled(): Promise<void> {}

  readonly marketData: VenueMarketData = {
    markets: () => this.#markets(),
    checkPair: (base, quote, symbol) => this.#checkPair(base, quote, symbol),
    keepFresh: async (recentMs) => {
      await Promise.all(this.members.map((m) => m.venue.marketData.keepFresh(recentMs).catch(() => undefined)));
    },
    bestLevels: (symbol) => this.#bestLevels(symbol),
  };

  /** Each venue's top of `symbol`'s book, in the venues' listed order; a venue that cannot answer is left out. */
  async #bestLevels(symbol: string): Promise<VenueBestLevels[]> {
    const read = await Promise.allSettled(this.members.map((m) => m.venue.marketData.bestLevels(symbol)));
    const ok = read.flatMap((x) => (x.status === 'fulfilled' ? x.value : []));
    if (ok.length > 0) return ok;
    const refused = read.find(
      (x): x is PromiseRejectedResult =>
        x.status === 'rejected' && x.reason instanceof DomainError && x.reason.code !== 'market.unavailable',
    );
    throw (refused ?? (read[0]! as PromiseRejectedResult)).reason;
  }

  /** Every market some venue trades, once per symbol (the first venue listing it gives its steps). */
  async #markets(): Promise<VenueMarketListing[]> {
    const read = await Promise.allSettled(this.members.map((m) => m.venue.marketData.markets()));
    const ok = read.flatMap((x) => (x.status === 'fulfilled' ? [x.value] : []));
    if (ok.length === 0) throw new DomainError('market.unavailable', { detail: "no venue's markets could be read" });
    const bySymbol = new Map<string, VenueMarketListing>();
    for (const list of ok) for (const m of list) if (!bySymbol.has(m.symbol)) bySymbol.set(m.symbol, m);
    return [...bySymbol.values()].sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  }

  /** A pair may be priced from venues when one at least trades exactly its two assets on that symbol. */
  async #checkPair(base: string, quote: string, symbol: string): Promise<void> {
    const read = await Promise.allSettled(this.members.map((m) => m.venue.marketData.checkPair(base, quote, symbol)));
    if (read.some((x) => x.status === 'fulfilled')) return;
    const refused = read.find(
      (x): x is PromiseRejectedResult =>
        x.status === 'rejected' && x.reason instanceof DomainError && x.reason.code !== 'market.unavailable',
    );
    throw (refused ?? (read[0]! as PromiseRejectedResult)).reason;
  }

  async status(): Promise<VenueStatus> {
    const each = await Promise.all(this.members.map((m) => m.venue.status!()));
    return { ...each[0]!, venues: each };
  }

  async health(): Promise<VenueHealth> {
    const each = await Promise.all(this.members.map(async (m) => ({ name: m.name, h: await m.venue.health!() })));
    if (each.length === 1) return each[0]!.h;
    const bookAgesMs = new Map<string, number>();
    const errors = new Map<string, number>();
    for (const { name, h } of each) {
      for (const [k, v] of h.bookAgesMs) bookAgesMs.set(`${name}:${k}`, v);
      for (const [k, v] of h.errors) errors.set(`${name}:${k}`, v);
    }
    // Every venue's orders are rows of one table: each member counts them all.
    return { bookAgesMs, errors, awaitingOutcome: each[0]!.h.awaitingOutcome };
  }

  observeExecutions(listener: (seconds: number) => void): void {
    for (const m of this.members) m.venue.observeExecutions?.(listener);
  }
}
