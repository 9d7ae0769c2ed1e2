import type { OrderBook } from '../../domain/market/book-pricing.ts';
import type { Clock } from '../../domain/ports.ts';

export interface HeldBook {
  book: OrderBook;
  receivedAt: number;
}

/**
 * The venue's order books in memory, per venue market, read over REST. A book's age counts from the
 * moment its answer was received (docs/market.md). A quote asks for a book no older than its pair's
 * maxBookAgeMs: a held one when fresh enough, else the venue is asked (one request per market at a
 * time, however many quotes wait). `poll` keeps the markets quoted lately fresh between quotes.
 */
export class BookCache {
  readonly #held = new Map<string, HeldBook>();
  readonly #inFlight = new Map<string, Promise<HeldBook>>();
  readonly #wantedAt = new Map<string, number>();

  constructor(
    private readonly fetch: (marketId: string) => Promise<OrderBook>,
    private readonly clock: Clock,
    /** How long a quote waits for the venue's answer before it is refused. */
    private readonly waitMs = 1500,
  ) {}

  /** A book no older than maxAgeMs; null when none can be had (the venue failed or is too slow). */
  async get(marketId: string, maxAgeMs: number): Promise<HeldBook | null> {
    this.#wantedAt.set(marketId, this.clock.now().getTime());
    const fresh = (b: HeldBook | undefined) => (b && this.clock.now().getTime() - b.receivedAt <= maxAgeMs ? b : null);
    const held = fresh(this.#held.get(marketId));
    if (held) return held;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.waitMs);
    });
    try {
      return fresh((await Promise.race([this.refresh(marketId), late])) ?? undefined);
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Reads the market's book now (joining a read already under way). */
  refresh(marketId: string): Promise<HeldBook> {
    const running = this.#inFlight.get(marketId);
    if (running) return running;
    const p = this.fetch(marketId)
      .then((book) => {
        const held = { book, receivedAt: this.clock.now().getTime() };
        this.#held.set(marketId, held);
        return held;
      })
      .finally(() => this.#inFlight.delete(marketId));
    this.#inFlight.set(marketId, p);
    return p;
  }

  /** Re-reads the books quoted in the last `recentMs`; one failure does not stop the others. */
  async poll(recentMs = 60_000, onError: (marketId: string, err: unknown) => void = () => {}): Promise<void> {
    const since = this.clock.now().getTime() - recentMs;
    await Promise.all(
      [...this.#wantedAt].filter(([, at]) => at >= since).map(([id]) => this.refresh(id).catch((err: unknown) => onError(id, err))),
    );
  }

  /** The book held for a market now, however old (the desk shows its age). */
  held(marketId: string): HeldBook | undefined {
    return this.#held.get(marketId);
  }

  /** Each held book's age in ms, for the metrics. */
  ages(): Map<string, number> {
    const now = this.clock.now().getTime();
    return new Map([...this.#held].map(([id, b]) => [id, now - b.receivedAt]));
  }
}
