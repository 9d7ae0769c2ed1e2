import type { Cluster } from './cluster.ts';
import { call, envelopeProblem, type Outcome } from './http.ts';
import type { History } from './history.ts';
import type { LogScan } from './log-scan.ts';
import type { Rng } from './prng.ts';

export const OPERATOR_TOKEN = 'verify-bank-operator-token-0123456789';
export const SECRET = 'verify-bank-secret-0123456789abcdef0123456789';

export interface Asset {
  symbol: string;
  decimals: number;
  network: string;
  /** Bank destinations take fiat, crypto destinations crypto (docs/api-guide.md). */
  kind: 'fiat' | 'crypto';
  /** The network a crypto destination names: the venue's code at a CCXT venue, the chain's name elsewhere. */
  destinationNetwork?: { venue: string; other: string };
}
export interface Org {
  id: string;
  memberId: string;
  key: string;
  keyId: string;
  small: boolean;
  invitation?: string;
}
/** `step`: base amounts the venue accepts are multiples of it (a pair priced from a venue's book). */
export interface Pair {
  base: string;
  quote: string;
  minBase: bigint;
  maxBase: bigint;
  step?: bigint;
}

/** Everything the workers share: the processes, what the clients saw, and work handed from clients to the operator. */
export class World {
  orgs: Org[] = [];
  assets: Asset[] = [];
  pairs: Pair[] = [];
  /** Paths of the OpenAPI document (`METHOD /path`): an operation kind runs only when its endpoints exist. */
  endpoints = new Set<string>();
  /** Declarations the clients made, waiting for the operator to record their arrival. */
  declared: Array<{ orgId: string; asset: string; expected: string; network: string }> = [];
  /** Destinations the clients registered, waiting for the operator to register them in the market. */
  toRegister: string[] = [];
  /** Production at the Binance double: crypto withdrawals are sent at the venue, which names networks by its own codes. */
  atVenue = false;
  txids: string[] = [];
  /** Production: a staff admin's personal token, for every operator write after the seed (the bootstrap token decides nothing there). */
  deskToken: string | null = null;
  /** Secrets that must never be printed by the service, looked for in every line it prints. */
  readonly secrets: LogScan;
  private counter = 0;

  constructor(
    readonly cluster: Cluster,
    readonly history: History,
    readonly seed: number,
    readonly deadline: number,
    secrets: LogScan,
  ) {
    this.secrets = secrets;
    secrets.add('operator token', OPERATOR_TOKEN);
    secrets.add('server secret', SECRET);
  }

  has(method: string, path: string): boolean {
    return this.endpoints.has(`${method} ${path}`);
  }
  unique(prefix: string): string {
    return `${prefix}-${this.seed}-${++this.counter}`;
  }
  running(): boolean {
    return Date.now() < this.deadline;
  }

  /**
   * Sends one request to a live instance. `refused` (nothing listening: a restart in progress) is retried,
   * since it cannot have changed anything; an answer or a loss is returned. Every answer must be the
   * envelope, and a 5xx is a violation (a lost connection is not: that is what a kill does).
   */
  async send(
    rng: Rng,
    op: string,
    method: string,
    path: string,
    o: { key?: string; operator?: boolean; body?: unknown } = {},
  ): Promise<Exclude<Outcome, { kind: 'refused' }>> {
    const headers: Record<string, string> = {};
    if (o.key) headers['x-api-key'] = o.key;
    if (o.operator && this.deskToken && method !== 'GET') {
      headers.authorization = `Bearer ${this.deskToken}`;
    } else if (o.operator) {
      headers.authorization = `Bearer ${OPERATOR_TOKEN}`;
      headers['x-operator'] = 'verify-bank';
    }
    this.sent++;
    if (!this.outages) return this.#sendOnce(rng, op, method, path, headers, o.body);
    return this.#sendThroughOutages(rng, op, method, path, headers, o.body, this.outages);
  }

  /** Logical operations sent (each may be several requests when outages are retried). */
  sent = 0;
  /** Requests sent again after a store outage (503 store.unavailable or no answer). */
  retries = 0;
  /**
   * Set: the database may lose its primary (verify:failover). A POST carries an Idempotency-Key; an answer
   * `503 store.unavailable` or none at all is retried with the same key after Retry-After, for at most
   * `budgetMs`. Once the outcome was uncertain, a `409 idempotency.in_progress` (the key held by the
   * interrupted attempt) is retried too; if it still holds at the end, the operation counts as lost (it
   * may or may not have happened, and the checker allows for both), as does a 503 at the end.
   */
  outages: { budgetMs: number } | null = null;

  async #sendThroughOutages(
    rng: Rng,
    op: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body: unknown,
    o: { budgetMs: number },
  ): Promise<Exclude<Outcome, { kind: 'refused' }>> {
    if (method === 'POST') headers = { ...headers, 'idempotency-key': this.unique('idem') };
    const t0 = Date.now();
    let uncertain = false;
    for (;;) {
      const r = await this.#sendOnce(rng, op, method, path, headers, body);
      const outage = r.kind === 'lost' || (r.status === 503 && r.body.code === 'store.unavailable');
      const held = uncertain && r.kind === 'answered' && r.status === 409 && r.body.code === 'idempotency.in_progress';
      if (outage) uncertain = true;
      if (!outage && !held) return r;
      if (Date.now() - t0 > o.budgetMs)
        return { kind: 'lost', error: outage ? 'no primary within the retry budget' : 'its Idempotency-Key stayed in flight' };
      this.retries++;
      const after = r.kind === 'answered' ? Number(r.retryAfter ?? '1') : 1;
      await sleep(Math.min(Math.max(after, 0.2), 5) * 1000);
    }
  }

  async #sendOnce(
    rng: Rng,
    op: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body: unknown,
  ): Promise<Exclude<Outcome, { kind: 'refused' }>> {
    for (let attempt = 0; ; attempt++) {
      const url = this.cluster.url((n) => rng.int(0, n - 1));
      const r: Outcome = url ? await call(url, method, path, { headers, body }) : { kind: 'refused' };
      if (r.kind === 'refused') {
        if (attempt > 600) return { kind: 'lost', error: 'no instance came back within a minute' };
        await sleep(100);
        continue;
      }
      if (r.kind === 'lost') {
        this.history.count(op, 'lost');
        return r;
      }
      this.history.count(op, String(r.status));
      const bad = envelopeProblem(r.status, r.raw);
      if (bad) this.history.violate(`${op} ${method} ${path}: ${bad}`);
      if (
        r.status >= 500 &&
        r.body.code !== 'deposits.no_unique_amount' &&
        !(this.outages && r.status === 503 && r.body.code === 'store.unavailable')
      ) {
        this.history.violate(`${op} ${method} ${path} answered ${r.status} ${r.body.code} (traceId ${r.body.traceId})`);
      }
      return r;
    }
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
