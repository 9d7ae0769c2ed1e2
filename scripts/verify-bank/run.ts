import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { checkOnce, stuck, INVARIANT_NAMES, type Mode } from './checker.ts';
import { CLIENT_OPS, type OpKind } from './client-ops.ts';
import { Cluster } from './cluster.ts';
import { createDatabase } from './database.ts';
import { call } from './http.ts';
import { History } from './history.ts';
import { LogScan } from './log-scan.ts';
import { drainDesk, OPERATOR_OPS } from './operator-ops.ts';
import { deskToken, seedPeople } from './people-ops.ts';
import { Rng } from './prng.ts';
import { seed } from './seed.ts';
import { scanStore } from './store-scan.ts';
import { OPERATOR_TOKEN, SECRET, sleep, World } from './world.ts';
import {
  DOUBLE_KEY,
  DOUBLE_SECRET,
  startBinanceDouble,
  type BinanceDouble,
} from '../../packages/server/test/venue-double/binance-double.ts';

export interface Options {
  seconds: number;
  clients: number;
  seed: number;
  killEveryMs: number;
  instances: number;
  checkEveryMs: number;
  adminUrl: string;
  redisUrl: string | null;
  keepDb: boolean;
  logLevel: string;
  /** production: the desk executes and pays out (docs/design/money-and-states.md); the run's simulated desk records fills and payouts. */
  mode: Mode;
  /** production: `ccxt` trades at a loopback Binance double through CCXT (docs/market.md) instead of the desk. */
  venue?: 'desk' | 'ccxt';
}

/**
 * What is known about a run so far. The summary line is printed from it however the run ends: finished,
 * failed to run, or interrupted.
 */
export class Tally {
  history: History | null = null;
  kills = 0;
  checks = 0;
  readonly violations = new Set<string>();
  /** Why the run could not finish, when it could not. */
  failure: string | null = null;
  /** Kills the processes at once (an interrupted run); set while they run. */
  abort: (() => Promise<void>) | null = null;
  get ops(): number {
    return this.history?.ops ?? 0;
  }
  summary(): string {
    return `${this.ops} operations, ${this.kills} kills, ${this.checks} checks, ${this.violations.size} violations`;
  }
}

/** Limit per minute per address while Redis carries the counters: shared by the instances, high enough never to refuse the workload. */
const SHARED_LIMIT_PER_MIN = 10_000_000;
const RATE_LIMIT_NAMESPACE = 'cambio-rl:';

const root = fileURLToPath(new URL('../../', import.meta.url));

export function replayCommand(o: Options): string {
  return (
    `npm run verify:bank -- --seconds ${o.seconds} --clients ${o.clients} --seed ${o.seed}` +
    (o.killEveryMs ? ` --kill-every ${o.killEveryMs}` : '') +
    (o.instances > 1 ? ` --instances ${o.instances}` : '') +
    (o.mode === 'production' ? ' --mode production' : '') +
    (o.venue === 'ccxt' ? ' --venue ccxt' : '')
  );
}

/** The whole run: database, processes, seed, workload with faults and periodic checks, recovery, final check. Never throws: a failure is `tally.failure`. */
export async function runBank(o: Options, print: (line: string) => void, tally: Tally = new Tally()): Promise<Tally> {
  try {
    await run(o, print, tally);
  } catch (e) {
    tally.failure = e instanceof Error ? e.message : String(e);
  }
  return tally;
}

async function run(o: Options, print: (line: string) => void, tally: Tally): Promise<void> {
  // Which store holds the rate-limit counters, said plainly: several instances share them only through Redis.
  if (o.redisUrl && !(await reachable(o.redisUrl))) {
    if (process.env.CI === 'true' || process.env.CI === '1') {
      throw new Error(
        `Redis at ${o.redisUrl} does not answer, and CI must exercise the limits the ${o.instances} instances share through it`,
      );
    }
    print(
      `rate limits: OFF, not shared: Redis at ${o.redisUrl} does not answer, so the ${o.instances} instance(s) run with no limit at all`,
    );
    o = { ...o, redisUrl: null };
  } else if (o.redisUrl) {
    print(`rate limits: Redis at ${o.redisUrl} shared by ${o.instances} instance(s), ${SHARED_LIMIT_PER_MIN} per minute per address`);
  } else {
    print(`rate limits: off (${o.instances} instance(s), no Redis asked for)`);
  }
  const rng = new Rng(o.seed);
  const history = new History();
  tally.history = history;
  const report = (p: string) => {
    if (!tally.violations.has(p)) {
      tally.violations.add(p);
      print(`VIOLATION ${p}`);
    }
  };
  const double = o.venue === 'ccxt' ? await venueDouble() : null;
  const db = await createDatabase(o.adminUrl);
  const scan = new LogScan();
  const cluster = new Cluster({
    root,
    instances: o.instances,
    env: {
      DATABASE_URL: db.url,
      OPERATOR_TOKEN,
      CAMBIO_SECRET: SECRET,
      CAMBIO_SEED_DEMO: 'false',
      CAMBIO_MODE: o.mode,
      CAMBIO_QUOTE_TTL_MS: '5000',
      CAMBIO_DECLARATION_TTL_MS: '20000',
      CAMBIO_DESTINATION_COOLDOWN_MS: '0',
      ...(o.redisUrl
        ? { REDIS_URL: o.redisUrl, CAMBIO_RATE_LIMIT_PER_MIN: String(SHARED_LIMIT_PER_MIN) }
        : { REDIS_URL: '', CAMBIO_RATE_LIMIT_PER_MIN: '0' }),
      LOG_LEVEL: o.logLevel,
      DB_POOL_SIZE: '10',
      // At the double, an order whose answer a kill cut off is looked up after 5 s, not 30 s.
      ...(double
        ? {
            CAMBIO_VENUE: 'ccxt:binance',
            CAMBIO_VENUE_URL: double.origin,
            CAMBIO_VENUE_API_KEY: DOUBLE_KEY,
            CAMBIO_VENUE_SECRET: DOUBLE_SECRET,
            CAMBIO_RECOVERY_GRACE_MS: '5000',
          }
        : {}),
    },
    onLog: (i, line) => scan.read(`[${i}] ${line}`),
  });
  const checker = new pg.Client({ connectionString: db.url });
  // A lost checker connection fails its queries (a failure to run); as an event it would end the process unreported.
  checker.on('error', () => undefined);
  tally.abort = async () => {
    await cluster.killAll();
    await double?.close();
    await checker.end().catch(() => undefined);
    if (!o.keepDb) await db.drop().catch(() => undefined);
  };
  try {
    await cluster.start();
    await checker.connect();
    const started = Date.now();
    const world = new World(cluster, history, o.seed, started + 10 * 60_000, scan);
    if (double) {
      scan.add('venue API key', DOUBLE_KEY);
      scan.add('venue secret', DOUBLE_SECRET);
    }
    const doc = await call(cluster.instances[0]!.url!, 'GET', '/api/v1/openapi.json');
    if (doc.kind !== 'answered' || doc.status !== 200) throw new Error('no OpenAPI document');
    for (const [path, item] of Object.entries((doc.body as any).paths ?? {})) {
      for (const m of Object.keys(item as object)) world.endpoints.add(`${m.toUpperCase()} ${path}`);
    }
    const orgCount = Math.max(2, Math.ceil(o.clients / 2));
    if (o.mode === 'production') world.deskToken = await deskToken(world);
    await seed(world, rng.fork(1), orgCount, double !== null);
    await seedPeople(world, print);
    const storedKeyHashes = async () => {
      for (const r of (await checker.query('select secret_hash from api_keys')).rows) scan.add('stored key hash', r.secret_hash);
    };
    await storedKeyHashes();
    const usable = <T extends { needs: string[] }>(k: T) => k.needs.every((n) => world.endpoints.has(n));
    const clientOps = CLIENT_OPS.filter(usable);
    // The desk's records exist in production only; a run against the simulated venue reconciles with it.
    // At a venue the orders execute by themselves: the desk records no order fill (it still pays out withdrawals).
    const operatorOps = OPERATOR_OPS.filter((k) => (k.mode ?? o.mode) === o.mode)
      .filter(usable)
      .filter((k) => !(double && k.name === 'desk-orders'));
    const skipped = [...CLIENT_OPS, ...OPERATOR_OPS.filter((k) => (k.mode ?? o.mode) === o.mode)]
      .filter((k) => !usable(k))
      .map((k) => k.name);
    print(
      `seeded ${orgCount} organizations; operation kinds: ${[...clientOps, ...operatorOps].map((k) => k.name).join(', ')}${skipped.length ? `; not available yet: ${skipped.join(', ')}` : ''}`,
    );

    (world as { deadline: number }).deadline = Date.now() + o.seconds * 1000;
    const weights = <K extends { name: string; weight: number }>(ks: K[]) => Object.fromEntries(ks.map((k) => [k.name, k.weight]));
    const clientLoop = async (i: number) => {
      const r = rng.fork(100 + i);
      const org = world.orgs[i % world.orgs.length]!;
      const byName = new Map(clientOps.map((k) => [k.name, k] as [string, OpKind]));
      while (world.running()) await byName.get(r.weighted(weights(clientOps)))!.run(world, r, org);
    };
    const operatorLoop = async (i: number) => {
      const r = rng.fork(10_000 + i);
      const byName = new Map(operatorOps.map((k) => [k.name, k]));
      while (world.running()) {
        await byName.get(r.weighted(weights(operatorOps)))!.run(world, r);
        await sleep(r.int(0, 20));
      }
    };
    const killer = async () => {
      if (!o.killEveryMs) return;
      const r = rng.fork(99);
      for (;;) {
        const wait = r.int(Math.floor(o.killEveryMs / 2), Math.floor((o.killEveryMs * 3) / 2));
        if (Date.now() + wait >= world.deadline) return;
        await sleep(wait);
        const which = r.int(0, o.instances - 1);
        const at = ((Date.now() - started) / 1000).toFixed(1);
        const t0 = Date.now();
        await cluster.killAndRestart(which);
        tally.kills++;
        print(`kill ${tally.kills}: instance ${which} killed with SIGKILL at ${at} s, listening again after ${Date.now() - t0} ms`);
      }
    };
    const periodic = async () => {
      while (world.running()) {
        await sleep(o.checkEveryMs);
        const c = await checkOnce(checker, history, false, o.mode);
        tally.checks += c.checks;
        c.problems.forEach(report);
      }
    };
    const operators = Math.max(2, Math.round(o.clients / 4));
    await Promise.all([
      ...Array.from({ length: o.clients }, (_, i) => clientLoop(i)),
      ...Array.from({ length: operators }, (_, i) => operatorLoop(i)),
      killer(),
      periodic(),
    ]);

    // Recovery: the service finishes what a kill interrupted (e.g. an approved order not yet settled).
    // The orders engineer's recovery re-drives an order left `approved` 30 s after its approval, every 15 s.
    if (o.mode === 'production') {
      // The desk works through what the load left approved: every approved request is the desk's to record.
      const d0 = Date.now();
      const r = rng.fork(77);
      let waiting = 1;
      while (waiting !== 0 && Date.now() - d0 < 60_000) {
        const [orders, withdrawals] = [double ? 0 : await drainDesk(world, r, 'orders', 50), await drainDesk(world, r, 'withdrawals', 50)];
        waiting = orders < 0 || withdrawals < 0 ? -1 : orders + withdrawals;
      }
      print(
        `desk: ${waiting === 0 ? 'recorded the outcome of every approved request' : 'still had approved requests'} ${((Date.now() - d0) / 1000).toFixed(0)} s after the load stopped`,
      );
    }
    let left = await stuck(checker);
    const leftAtEnd = left.length;
    const t0 = Date.now();
    while (left.length > 0 && Date.now() - t0 < 75_000) {
      await sleep(1000);
      left = await stuck(checker);
    }
    if (leftAtEnd > 0)
      print(
        `recovery: ${leftAtEnd} request(s) left half-done when the load stopped; ${leftAtEnd - left.length} finished by the service within ${((Date.now() - t0) / 1000).toFixed(0)} s`,
      );
    left.forEach((p) => history.violate(`half-done: ${p}`));
    if (double) {
      await venueChecks(double, checker, history, print);
      tally.checks++;
    }
    const last = await checkOnce(checker, history, true, o.mode);
    tally.checks += last.checks;
    last.problems.forEach(report);
    // The mix's withdrawals by kind of destination and how they ended: crypto ones are in it.
    const ends = await checker.query(
      `select d.kind, w.state, count(*)::text as n from withdrawals w join withdrawal_destinations d on d.id = w.destination_id group by 1, 2 order by 1, 2`,
    );
    for (const kind of ['bank', 'crypto']) {
      const mine = ends.rows.filter((r) => r.kind === kind);
      print(`${kind} withdrawals: ${mine.map((r) => `${r.n} ${r.state}`).join(', ') || 'none'}`);
    }

    // What each client reads through the API is what the books say.
    const books = await checker.query(`select owner_id, asset_symbol, kind, balance::text as b from accounts where owner_id <> 'platform'`);
    for (const org of world.orgs) {
      const r = await world.send(rng, 'final-read', 'GET', '/api/v1/balances', { key: org.key });
      if (r.kind !== 'answered' || r.status !== 200) {
        history.violate(`final GET /balances of ${org.id} failed`);
        continue;
      }
      for (const b of r.body.data as Array<{ assetSymbol: string; amountMinor: string; heldMinor?: string }>) {
        const want = (kind: string) =>
          books.rows.find((x) => x.owner_id === org.id && x.asset_symbol === b.assetSymbol && x.kind === kind)?.b ?? '0';
        if (b.amountMinor !== want('available') || (b.heldMinor !== undefined && b.heldMinor !== want('held'))) {
          history.violate(
            `${org.id} reads ${b.assetSymbol} available ${b.amountMinor} held ${b.heldMinor} but the books say ${want('available')} and ${want('held')}`,
          );
        }
      }
    }
    tally.checks++;

    if (o.redisUrl) {
      await sharedLimitProbe(world, o.redisUrl, print);
      tally.checks++;
    }
    // A client that pastes its key into a query string: each instance's request line must not show it.
    for (const i of cluster.instances)
      if (i.url && world.orgs[0])
        await call(i.url, 'GET', `/api/v1/client?key=${encodeURIComponent(world.orgs[0].key)}`, {
          headers: { 'x-api-key': world.orgs[0].key },
        });
    await timing401(world, rng.fork(7), print);

    // Secrets in the service's output: every line, once the processes have stopped and their output is drained.
    await storedKeyHashes();
    await cluster.stop();
    print(scan.summary());
    tally.checks++;
    for (const f of scan.found) history.violate(f);
    if (scan.seen > scan.found.length) history.violate(`${scan.seen - scan.found.length} more log lines show a secret`);
    // The same secrets in the store: every row of every table, as text.
    const stored = await scanStore(checker, scan.secrets());
    print(
      `store scan: ${stored.rows} rows of ${stored.tables} tables read; looked for ${stored.secrets} secrets; ${stored.found.length} found`,
    );
    tally.checks++;
    for (const f of stored.found) history.violate(f);

    print(`checked invariants: ${INVARIANT_NAMES.length} per snapshot (${INVARIANT_NAMES.join('; ')})`);
    for (const [op, m] of [...history.outcomes].sort())
      print(
        `  ${op.padEnd(22)} ${[...m]
          .sort()
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')}`,
      );
    print(
      `lost answers (in flight at a kill or timed out): ${history.lost.length}; instance starts: ${cluster.instances.map((i) => i.starts).join('/')}`,
    );
    history.violations.forEach(report);
  } finally {
    tally.abort = null;
    await checker.end().catch(() => undefined);
    await cluster.stop().catch(() => cluster.killAll());
    await double?.close();
    if (!o.keepDb) await db.drop().catch((e: unknown) => print(`could not drop ${db.name}: ${String(e)}`));
    else print(`database kept: ${db.url}`);
  }
}

/**
 * Proof that the instances count against one budget in Redis: once the load has stopped, client requests
 * sent to each instance in turn must move the shared counters by exactly their number. Counters kept in
 * each process's memory would not move them at all.
 */
async function sharedLimitProbe(w: World, redisUrl: string, print: (l: string) => void): Promise<void> {
  const org = w.orgs[0];
  const urls = w.cluster.instances.map((i) => i.url).filter((u): u is string => u !== null);
  if (!org || urls.length === 0) {
    w.history.violate('shared rate limit: no instance to probe');
    return;
  }
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const counters = async () => {
      const m = new Map<string, number>();
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${RATE_LIMIT_NAMESPACE}*`, 'COUNT', 1000);
        cursor = next;
        const values = keys.length ? await redis.mget(...keys) : [];
        keys.forEach((k, i) => m.set(k, Number(values[i] ?? 0)));
      } while (cursor !== '0');
      return m;
    };
    const n = 10 * urls.length;
    let moved = -1;
    // Twice at most: a counter whose minute ran out during the probe starts again from zero.
    for (let attempt = 0; attempt < 2 && moved !== n; attempt++) {
      const before = await counters();
      for (let i = 0; i < n; i++) await call(urls[i % urls.length]!, 'GET', '/api/v1/client', { headers: { 'x-api-key': org.key } });
      const after = await counters();
      moved = [...after].reduce((sum, [k, v]) => sum + Math.max(0, v - (before.get(k) ?? 0)), 0);
    }
    print(`rate-limit store: ${n} client requests across ${urls.length} instance(s) moved the shared Redis counters by ${moved}`);
    if (moved !== n) w.history.violate(`rate limits are not shared through Redis: ${n} requests moved its counters by ${moved}`);
  } catch (e) {
    w.history.violate(`rate limits: Redis could not be read after the run: ${String(e)}`);
  } finally {
    redis.disconnect();
  }
}

function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = connect(Number(u.port || 6379), u.hostname);
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
    s.setTimeout(1000, () => done(false));
  });
}

/** Informational only (no assertion on time): 401 latency for an unknown prefix versus a wrong secret. */
async function timing401(w: World, rng: Rng, print: (l: string) => void) {
  const url = w.cluster.url(() => 0);
  const org = w.orgs[0];
  if (!url || !org) return;
  const [head, rest] = org.key.split('_live_') as [string, string];
  const prefix = rest.split('.')[0]!;
  const samples: Record<'unknown prefix' | 'wrong secret', number[]> = { 'unknown prefix': [], 'wrong secret': [] };
  for (let i = 0; i < 1000; i++) {
    const which = i % 2 === 0 ? 'unknown prefix' : 'wrong secret';
    const secret = Array.from({ length: 43 }, () => rng.pick([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'])).join(
      '',
    );
    const key = which === 'unknown prefix' ? `${head}_live_zz${rng.digits(10)}.${secret}` : `${head}_live_${prefix}.${secret}`;
    const t = process.hrtime.bigint();
    await call(url, 'GET', '/api/v1/client', { headers: { 'x-api-key': key } });
    samples[which].push(Number(process.hrtime.bigint() - t) / 1000);
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  print(
    `401 latency (median, µs): unknown prefix ${median(samples['unknown prefix']).toFixed(0)}, wrong secret ${median(samples['wrong secret']).toFixed(0)} (informational)`,
  );
}

/** The Binance double the ccxt runs trade at: BTC/USD and EUR/USD, books deep enough for any order of the workload. */
async function venueDouble(): Promise<BinanceDouble> {
  const double = await startBinanceDouble({
    symbols: [
      { symbol: 'BTCUSD', base: 'BTC', quote: 'USD', step: '0.00001', minQty: '0.00001', tick: '0.01', minNotional: '5' },
      { symbol: 'EURUSD', base: 'EUR', quote: 'USD', step: '0.01', minQty: '0.01', tick: '0.0001', minNotional: '5' },
    ],
  });
  double.setBook('BTCUSD', {
    bids: [
      ['60000.00', '5'],
      ['59990.00', '1000'],
    ],
    asks: [
      ['60010.00', '5'],
      ['60020.00', '1000'],
    ],
  });
  double.setBook('EURUSD', {
    bids: [
      ['1.0800', '100000'],
      ['1.0790', '100000000'],
    ],
    asks: [
      ['1.0810', '100000'],
      ['1.0820', '100000000'],
    ],
  });
  for (const a of ['BTC', 'USD', 'EUR']) double.setBalance(a, '1000000000');
  return double;
}

/**
 * At the venue, once the load has stopped and recovery has run: no client order id has two venue
 * orders; every order Cambio completed at the venue has exactly one there, with its venue reference;
 * none that Cambio failed or left approved traded in full there.
 */
async function venueChecks(double: BinanceDouble, checker: pg.Client, history: History, print: (l: string) => void): Promise<void> {
  const per = double.ordersPerClientId();
  for (const [id, n] of per) if (n > 1) history.violate(`order ${id} was sent to the venue ${n} times`);
  const rows = (
    await checker.query(
      `select o.id, o.state, o.venue_reference, v.state as venue_state from orders o left join venue_orders v on v.order_id = o.id`,
    )
  ).rows as Array<{ id: string; state: string; venue_reference: string | null; venue_state: string | null }>;
  const byId = new Map(double.orders.map((x) => [x.clientOrderId, x]));
  let completed = 0;
  for (const r of rows) {
    const at = byId.get(r.id);
    if (r.state === 'completed') {
      completed++;
      if (!at) history.violate(`order ${r.id} completed with no order at the venue`);
      else if (String(at.orderId) !== r.venue_reference)
        history.violate(`order ${r.id} completed with venue reference ${r.venue_reference}, the venue's is ${at.orderId}`);
    } else if (at && at.status === 'FILLED') {
      history.violate(`order ${r.id} is ${r.state} at Cambio but filled at the venue`);
    }
  }
  const strangers = [...per.keys()].filter((id) => !rows.some((r) => r.id === id));
  if (strangers.length) history.violate(`venue orders of no Cambio order: ${strangers.join(', ')}`);
  print(
    `venue: ${double.orders.length} orders at the double for ${per.size} client order ids (${[...per.values()].filter((n) => n > 1).length} sent twice); ${completed} completed at Cambio`,
  );

  // Crypto withdrawals: one at the venue per withdrawal id at most, a completed one carrying the venue's txid,
  // none ended at Cambio while it was sent there (docs/market.md).
  const sent = double.withdrawalsPerOrderId();
  for (const [id, n] of sent) if (n > 1) history.violate(`withdrawal ${id} was sent to the venue ${n} times`);
  const crypto = (
    await checker.query(
      `select w.id, w.state, w.txid from withdrawals w join withdrawal_destinations d on d.id = w.destination_id where d.kind = 'crypto'`,
    )
  ).rows as Array<{ id: string; state: string; txid: string | null }>;
  const atVenue = new Map(double.withdrawals.map((x) => [x.withdrawOrderId, x]));
  let paid = 0;
  for (const r of crypto) {
    const at = atVenue.get(r.id);
    if (r.state === 'completed') {
      paid++;
      if (!at) history.violate(`crypto withdrawal ${r.id} completed with nothing sent at the venue`);
      else if (at.txId !== r.txid) history.violate(`crypto withdrawal ${r.id} completed with txid ${r.txid}, the venue's is ${at.txId}`);
    } else if (at && at.status === 6) {
      history.violate(`crypto withdrawal ${r.id} is ${r.state} at Cambio but completed at the venue`);
    }
  }
  const unknown = [...sent.keys()].filter((id) => !crypto.some((r) => r.id === id));
  if (unknown.length) history.violate(`venue withdrawals of no Cambio withdrawal: ${unknown.join(', ')}`);
  print(
    `venue: ${double.withdrawals.length} withdrawals at the double for ${sent.size} withdrawal ids (${[...sent.values()].filter((n) => n > 1).length} sent twice); ${paid} crypto withdrawals completed at Cambio`,
  );
}
