import { runLoad, type Shot } from './load.ts';
import { BASE, QUOTE, QUOTE_BASE_MINOR, type BenchOrg } from './seed.ts';

const QUOTE_BODY = JSON.stringify({ baseSymbol: BASE, quoteSymbol: QUOTE, amountBaseMinor: QUOTE_BASE_MINOR });

/**
 * Unaccepted quotes per organization. Every order accepts a fresh quote, so the orders scenarios
 * draw from a pool made before the measured window (quotes live an hour in the bench), and the
 * order figure counts orders only, never the quote calls that fed them.
 */
export class QuotePool {
  readonly #ids: string[][];
  #orgCursor = 0;
  #fillCursor = 0;

  constructor(readonly orgs: BenchOrg[]) {
    this.#ids = orgs.map(() => []);
  }

  get size(): number {
    return this.#ids.reduce((s, q) => s + q.length, 0);
  }

  /** A POST /quotes for the next organization in turn. */
  quoteShot(): Shot {
    const org = this.#fillCursor++ % this.orgs.length;
    return { method: 'POST', path: '/api/v1/quotes', key: this.orgs[org]!.key, body: QUOTE_BODY, kind: 'quote', org };
  }

  /** Keeps the id of a quote a shot made. */
  collect(shot: Shot, status: number, body: string): void {
    if (shot.kind !== 'quote' || status !== 201 || shot.org === undefined) return;
    const id = (JSON.parse(body) as { data?: { id?: string } }).data?.id;
    if (id) this.#ids[shot.org]!.push(id);
  }

  /** A POST /orders accepting a pooled quote, organizations in turn (so no two in flight share a balance); null when empty. */
  orderShot(): Shot | null {
    for (let n = 0; n < this.orgs.length; n++) {
      const org = this.#orgCursor++ % this.orgs.length;
      const id = this.#ids[org]!.pop();
      if (id)
        return {
          method: 'POST',
          path: '/api/v1/orders',
          key: this.orgs[org]!.key,
          body: JSON.stringify({ quoteId: id }),
          kind: 'order',
          org,
        };
    }
    return null;
  }

  /** Adds `count` quotes (at least one per connection), made as fast as the server allows. */
  async fill(url: string, connections: number, count: number): Promise<void> {
    const amount = Math.max(connections, Math.ceil(count));
    const r = await runLoad({ url, connections, amount, next: () => this.quoteShot(), onBody: (s, st, b) => this.collect(s, st, b) });
    if (r.errors > 0) throw new Error(`filling the quote pool: ${r.errors} errors (${JSON.stringify(r.statusCodes)})`);
  }

  /** Adds quotes for `seconds` of full-speed quoting. */
  async fillFor(url: string, connections: number, seconds: number): Promise<void> {
    const r = await runLoad({
      url,
      connections,
      duration: seconds,
      next: () => this.quoteShot(),
      onBody: (s, st, b) => this.collect(s, st, b),
    });
    if (r.errors > 0) throw new Error(`filling the quote pool: ${r.errors} errors (${JSON.stringify(r.statusCodes)})`);
  }
}
