import { cpuPerRequest, cpuSnapshot, type CpuPerRequest } from './cpu.ts';
import { runLoad, type LoadResult, type LoadSpec, type Shot } from './load.ts';
import { QuotePool } from './quote-pool.ts';
import type { BenchOrg, Seeded } from './seed.ts';

export const SCENARIOS = ['balances', 'quotes', 'orders-spread', 'orders-hot', 'mix', 'lists'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];
/** What a run without --only runs: the full run's scenarios, in its order. */
export const FULL: ScenarioName[] = ['balances', 'quotes', 'orders-spread', 'orders-hot', 'mix'];
/** --cold: orders first on a fresh database, before any other scenario has written or read the tables. */
export const COLD: ScenarioName[] = ['orders-spread', 'orders-hot', 'quotes', 'balances', 'mix'];
/** --growth: the order path, quoting, the balances and the lists' first page at each size. */
export const GROWTH: ScenarioName[] = ['orders-spread', 'quotes', 'balances', 'lists'];
const LISTS = ['/api/v1/orders', '/api/v1/withdrawals', '/api/v1/ledger', '/api/v1/events'];

/** What each scenario exercises, for the report. */
export const DESCRIPTIONS: Record<ScenarioName, string> = {
  balances: 'GET /api/v1/balances, keys of every organization in turn: auth (key, member role, organization) + balances',
  quotes: 'POST /api/v1/quotes, organizations in turn: auth + pair terms + exact pricing + one insert',
  'orders-spread': 'POST /api/v1/orders accepting a fresh quote, organizations in turn: consume quote + hold + journal, one transaction',
  'orders-hot': 'POST /api/v1/orders, all on one organization: every hold updates the same balance row',
  mix: '70% GET /balances, 20% POST /quotes, 10% POST /orders, organizations in turn',
  lists: 'the first page of GET /api/v1/orders, /withdrawals, /ledger and /events in turn, organizations in turn',
};

export const needsPricing = (s: ScenarioName) => s !== 'balances' && s !== 'lists';

export interface RunOpts {
  url: string;
  connections: number;
  duration: number;
  warmup: number;
  /** Cambio's pid and its PostgreSQL database, for their CPU time. */ pid?: number | undefined;
  database?: string | undefined;
}
export interface ScenarioOutcome {
  result: LoadResult;
  cpu: CpuPerRequest | null;
  notes: string[];
  /** The measured window (epoch ms). */ window: { start: number; end: number };
}

/** Every organization's balances, in turn: the balances scenario's requests (and the mix's reads). */
export const balancesCycle = (orgs: BenchOrg[]): Shot[] =>
  orgs.map((o, org) => ({ method: 'GET', path: '/api/v1/balances', key: o.key, kind: 'read', org }));

/** One store's run: the pools carry quotes from one scenario to the next (quotes feed orders-spread). */
export class ScenarioRunner {
  readonly spread: QuotePool;
  readonly hot: QuotePool;
  /** POST /orders sent, answered, and answered 201, warm-ups included: the invariant check compares them with the orders table. */
  readonly orders = { sent: 0, answered: 0, created: 0 };
  readonly #balances: Shot[];
  #read = 0;
  #mixTurn = 0;

  constructor(
    private readonly seeded: Seeded,
    readonly opts: RunOpts,
  ) {
    this.spread = new QuotePool(seeded.orgs);
    this.hot = new QuotePool([seeded.hot]);
    this.#balances = balancesCycle(seeded.orgs);
  }

  /** Each organization's lists, one organization after the other: the lists scenario's requests. */
  get #listsCycle(): Shot[] {
    return this.seeded.orgs.flatMap((o, org) => LISTS.map((path): Shot => ({ method: 'GET', path, key: o.key, kind: 'read', org })));
  }

  #balancesShot = (): Shot => this.#balances[this.#read++ % this.#balances.length]!;

  #onBody = (shot: Shot, status: number, body: string) => {
    if (shot.kind === 'quote') this.spread.collect(shot, status, body);
    else if (shot.kind === 'order') {
      this.orders.answered++;
      if (status === 201) this.orders.created++;
    }
  };

  /** Counts the orders sent: one still in flight when a run stops may be committed without its answer being read. */
  #counted(next: () => Shot | null): () => Shot | null {
    return () => {
      const shot = next();
      if (shot?.kind === 'order') this.orders.sent++;
      return shot;
    };
  }

  /** The measured window, with the CPU each process group spent in it. */
  async #window(spec: LoadSpec): Promise<{ result: LoadResult; cpu: CpuPerRequest | null; window: { start: number; end: number } }> {
    const a = cpuSnapshot(this.opts.pid, this.opts.database);
    const start = Date.now();
    const result = await runLoad(spec);
    const window = { start, end: Date.now() };
    return { result, cpu: cpuPerRequest(a, cpuSnapshot(this.opts.pid, this.opts.database), result.ok), window };
  }

  /** Warm-up (not measured, same shape), then the measured window: a request after another, or a cycle of reads. */
  async #measure(work: { next: () => Shot | null } | { cycle: Shot[] }): Promise<Omit<ScenarioOutcome, 'notes'>> {
    const base = { url: this.opts.url, connections: this.opts.connections, ...('next' in work ? { ...work, onBody: this.#onBody } : work) };
    if (this.opts.warmup > 0) await runLoad({ ...base, duration: this.opts.warmup });
    return this.#window({ ...base, duration: this.opts.duration });
  }

  /**
   * Orders draw from a pool. Enough for the warm-up is made first (quoting is faster than ordering); the
   * warm-up's order rate then sizes the top-up for the measured window, three times over.
   */
  async #orders(
    pool: QuotePool,
    uncounted: () => Shot | null,
    orderShare: number,
    onBody: (shot: Shot, status: number, body: string) => void = this.#onBody,
  ): Promise<ScenarioOutcome> {
    const notes: string[] = [];
    const next = this.#counted(uncounted);
    const { url, connections, duration, warmup } = this.opts;
    if (warmup > 0 && pool.size < connections * 4) await pool.fillFor(url, connections, Math.max(1, warmup * orderShare));
    const warm = warmup > 0 ? await runLoad({ url, connections, duration: warmup, next, onBody }) : emptyResult();
    const rate = warm.durationSec > 0 && warm.byKind.order ? warm.byKind.order.ok / warm.durationSec : 2000 * orderShare;
    const want = Math.ceil(rate * duration * 3) + connections * 4;
    if (pool.size < want) await pool.fill(url, connections, want - pool.size);
    const { result, cpu, window } = await this.#window({ url, connections, duration, next, onBody });
    if (result.exhausted) notes.push(`quote pool used up after ${result.durationSec.toFixed(1)} s: measured over that window`);
    notes.push(`${pool.size} pooled quotes left unaccepted`);
    return { result, cpu, notes, window };
  }

  /**
   * A load of the caller's, drawing orders from the spread pool as orders-spread does (warm-up, pool top-up
   * sized by the warm-up's order rate, measured window): `orderShare` is the orders' share of its requests.
   * Every answer goes to `onBody` as well as to the runner's own counts.
   */
  async runOrders(next: () => Shot | null, orderShare: number, onBody: (shot: Shot, status: number, body: string) => void) {
    return this.#orders(this.spread, next, orderShare, (shot, status, body) => {
      this.#onBody(shot, status, body);
      onBody(shot, status, body);
    });
  }

  async run(name: ScenarioName): Promise<ScenarioOutcome> {
    switch (name) {
      case 'balances': {
        return { ...(await this.#measure({ cycle: this.#balances })), notes: [] };
      }
      case 'lists': {
        return { ...(await this.#measure({ cycle: this.#listsCycle })), notes: [] };
      }
      case 'quotes': {
        return {
          ...(await this.#measure({ next: () => this.spread.quoteShot() })),
          notes: ['the quotes made here feed the orders-spread pool'],
        };
      }
      case 'orders-spread':
        return this.#orders(this.spread, () => this.spread.orderShot(), 1);
      case 'orders-hot':
        return this.#orders(this.hot, () => this.hot.orderShot(), 1);
      case 'mix': {
        // A fixed cycle of ten: 7 reads, 2 quotes, 1 order.
        const next = (): Shot | null => {
          const t = this.#mixTurn++ % 10;
          return t < 7 ? this.#balancesShot() : t < 9 ? this.spread.quoteShot() : this.spread.orderShot();
        };
        const out = await this.#orders(this.spread, next, 0.1);
        const k = out.result.byKind;
        out.notes.unshift(
          `per second: ${perSec(k.read?.ok, out.result)} reads, ${perSec(k.quote?.ok, out.result)} quotes, ${perSec(k.order?.ok, out.result)} orders`,
        );
        return out;
      }
    }
  }
}

const perSec = (n: number | undefined, r: LoadResult) => ((n ?? 0) / r.durationSec).toFixed(0);

function emptyResult(): LoadResult {
  return { durationSec: 0, ok: 0, errors: 0, statusCodes: {}, reqPerSec: 0, p50Ms: 0, p99Ms: 0, byKind: {}, exhausted: false };
}
