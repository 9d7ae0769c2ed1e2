import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { summarize } from './src/cpuprofile-summary.ts';
import { createDatabase, DEFAULT_ADMIN_URL, serverFacts } from './src/databases.ts';
import { checkPglite, checkPostgres, type InvariantReport, type OrderCounts } from './src/invariants.ts';
import { machineFacts } from './src/machine.ts';
import { parseOptions, USAGE, type Options } from './src/options.ts';
import { ROOT, startCambio, type Served } from './src/processes.ts';
import { findPgbench, helloWorld, pgbench } from './src/references.ts';
import { printTable, recordOf, type References, type ScenarioRecord, type StoreKind } from './src/report.ts';
import { needsPricing, ScenarioRunner, type ScenarioName } from './src/scenarios.ts';
import { BASE, QUOTE, QUOTE_BASE_MINOR, routeExists, seed, type Seeded } from './src/seed.ts';
import { counts, seedEarlier, withPglite, withPostgres, type Exec } from './src/bulk-seed.ts';
import { judge, printGrowth, type GrowthStep } from './src/growth.ts';
import { growthSvg } from './src/svg-plot.ts';
import { Receivers } from './src/webhook-receivers.ts';
import { webhooksDrain, webhooksRecord, webhooksRun, type WebhooksDrain, type WebhooksRecord, type WebhooksRun } from './src/webhooks.ts';
import { venueRun } from './src/venue.ts';
import { logBench, type LogBenchRecord } from './src/log-bench.ts';

const log = (s: string) => console.log(`· ${s}`);
const cleanups = new Set<() => Promise<void>>();
async function cleanup() {
  for (const c of [...cleanups].reverse()) {
    cleanups.delete(c);
    try {
      await c();
    } catch (e) {
      console.error(`cleanup: ${(e as Error).message}`);
    }
  }
}

interface Skipped {
  name: ScenarioName;
  store: StoreKind;
  reason: string;
}

/** Which of the wanted scenarios this build can run (quotes and orders arrive with their capability). */
async function runnable(
  url: string,
  seeded: Seeded,
  o: Options,
  store: StoreKind,
  skipped: Skipped[],
): Promise<{ list: ScenarioName[]; orders: boolean }> {
  const key = seeded.orgs[0]!.key;
  const quotes = seeded.pricing && (await routeExists(url, 'POST', '/api/v1/quotes', key));
  const orders = quotes && (await routeExists(url, 'POST', '/api/v1/orders', key));
  const list: ScenarioName[] = [];
  for (const s of o.only) {
    const missing = !needsPricing(s)
      ? null
      : !seeded.pricing
        ? 'PUT /operator/v1/market/pairs is not built yet'
        : !quotes
          ? 'POST /api/v1/quotes is not built yet'
          : s !== 'quotes' && !orders
            ? 'POST /api/v1/orders is not built yet'
            : null;
    if (missing) skipped.push({ name: s, store, reason: missing });
    else list.push(s);
  }
  return { list, orders };
}

/** The main thread's profile (CPU.<date>.<time>.<pid>.0.<seq>): tsx's loader thread writes one of its own. */
function newestProfile(dir: string, since: number): string | null {
  const files = readdirSync(dir)
    .filter((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f))
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).mtimeMs >= since);
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0] ?? null;
}

interface Opened {
  start: () => Promise<Served>;
  check: (orders: OrderCounts | null) => Promise<InvariantReport>;
  database?: string;
  exec: <T>(f: (e: Exec) => Promise<T>) => Promise<T>;
}

/** A fresh store of that kind: how to start Cambio on it, check its ledger, and run SQL on it (PGlite: with Cambio stopped). */
async function openStore(
  store: StoreKind,
  o: Options,
  adminUrl: string,
  profileDir: string,
  env: Record<string, string> = {},
): Promise<Opened> {
  if (store === 'postgres') {
    const db = await createDatabase(adminUrl, 'cambio_bench');
    cleanups.add(db.drop);
    return {
      database: db.name,
      start: () =>
        startCambio(
          { databaseUrl: db.url },
          {
            nodeArgs: o.profile ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [],
            preload: o.experimentPrepared ? ['./bench/src/prepared-preload.ts'] : [],
            env,
          },
        ),
      check: (n) => checkPostgres(db.url, n),
      exec: (f) => withPostgres(db.url, f),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'cambio-bench-'));
  cleanups.add(async () => rmSync(dir, { recursive: true, force: true }));
  return {
    start: () => startCambio({ dataDir: dir }, { nodeArgs: o.profile ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [], env }),
    check: (n) => checkPglite(dir, n),
    exec: (f) => withPglite(dir, f),
  };
}

async function storeRun(
  store: StoreKind,
  o: Options,
  refs: References,
  adminUrl: string,
  pgFigures: Map<ScenarioName, number>,
  skipped: Skipped[],
  extra: { profile?: string },
): Promise<ScenarioRecord[]> {
  const records: ScenarioRecord[] = [];
  const profileDir = resolve(ROOT, 'bench/results');
  const { start, check, database } = await openStore(store, o, adminUrl, profileDir);
  let began = Date.now();
  let windows: Array<{ start: number; end: number }> = [];
  let server = await start();
  cleanups.add(server.stop);
  log(`${store}: cambio at ${server.url}; seeding ${o.orgs} + 1 organizations through the operator API`);
  const seeded = await seed(server.url, o.orgs);
  const { list, orders } = await runnable(server.url, seeded, o, store, skipped);
  const runner = new ScenarioRunner(seeded, {
    url: server.url,
    pid: server.child.pid,
    database,
    connections: o.connections,
    duration: o.duration,
    warmup: o.warmup,
  });

  for (const [i, s] of list.entries()) {
    log(`${store}: ${s} (${o.warmup} s warm-up, ${o.duration} s measured, ${o.connections} connections)`);
    try {
      const out = await runner.run(s);
      windows.push(out.window);
      // PGlite belongs to one process: the server stops so the check can open its directory, then restarts.
      if (store === 'pglite') {
        await server.stop();
        cleanups.delete(server.stop);
      }
      const c = runner.orders;
      const inv = await check(orders ? { created: c.created, unanswered: c.sent - c.answered } : null);
      const rec = recordOf(s, store, out.result, out.cpu, refs, inv, out.notes, pgFigures.get(s) ?? null);
      records.push(rec);
      if (store === 'postgres') pgFigures.set(s, rec.reqPerSec);
      log(
        `${store}: ${s}: ${rec.reqPerSec.toFixed(0)} req/s, p50 ${rec.p50Ms} ms, p99 ${rec.p99Ms} ms, ${rec.errors} errors, ledger ${inv.ok ? 'ok' : 'BROKEN'}`,
      );
    } catch (e) {
      skipped.push({ name: s, store, reason: `failed: ${(e as Error).message}` });
      log(`${store}: ${s} failed: ${(e as Error).message}`);
    }
    if (store === 'pglite' && i < list.length - 1 && (server.child.exitCode !== null || server.child.signalCode !== null)) {
      began = Date.now();
      windows = [];
      server = await start();
      cleanups.add(server.stop);
      runner.opts.url = server.url;
      runner.opts.pid = server.child.pid;
    }
  }
  await server.stop();
  cleanups.delete(server.stop);
  if (o.profile) addProfile(extra, store, profileDir, began, windows);
  return records;
}

/**
 * The summary of the newest profile of a Cambio process started at `began`, its measured windows only
 * (start-up, seeding, pool filling and warm-ups are left out). On PGlite every restart is a new process
 * and a new profile: the summary is the last one's.
 */
function addProfile(
  extra: { profile?: string },
  store: StoreKind,
  dir: string,
  began: number,
  windows: Array<{ start: number; end: number }>,
) {
  const file = newestProfile(dir, began);
  const window = windows.length ? { fromMs: windows[0]!.start - began, toMs: windows[windows.length - 1]!.end - began } : undefined;
  const summary = `${store}: ${file ? summarize(file, 30, window) : 'no .cpuprofile was written'}`;
  extra.profile = extra.profile ? `${extra.profile}\n\n${summary}` : summary;
}

/**
 * --growth on one store: Cambio seeded through the API as in every run, then at each size the earlier
 * quotes (and their orders, holds, entries, postings, events) written in bulk in SQL up to that size, the
 * scenarios measured there, and the ledger checked. PGlite's directory is one process's: Cambio stops
 * for the bulk writes and the check.
 */
async function growthRun(
  store: StoreKind,
  o: Options,
  refs: References,
  adminUrl: string,
  pgFigures: Map<string, number>,
  skipped: Skipped[],
  extra: { profile?: string },
): Promise<GrowthStep[]> {
  const steps: GrowthStep[] = [];
  const profileDir = resolve(ROOT, 'bench/results');
  const { start, check, database, exec } = await openStore(store, o, adminUrl, profileDir);
  let began = Date.now();
  let windows: Array<{ start: number; end: number }> = [];
  let server = await start();
  cleanups.add(server.stop);
  log(`${store}: cambio at ${server.url}; seeding ${o.orgs} + 1 organizations through the operator API`);
  const seeded = await seed(server.url, o.orgs);
  const { list } = await runnable(server.url, seeded, o, store, skipped);
  // The template of every bulk-written quote: one the API made (pair, decimals, rate, amounts).
  const made = await fetch(`${server.url}/api/v1/quotes`, {
    method: 'POST',
    headers: { 'x-api-key': seeded.orgs[0]!.key, 'content-type': 'application/json' },
    body: JSON.stringify({ baseSymbol: BASE, quoteSymbol: QUOTE, amountBaseMinor: QUOTE_BASE_MINOR }),
  });
  const template = ((await made.json()) as { data?: { id?: string } }).data?.id;
  if (!template) throw new Error(`growth: the template quote was refused (${made.status})`);
  const runner = new ScenarioRunner(seeded, {
    url: server.url,
    pid: server.child.pid,
    database,
    connections: o.connections,
    duration: o.duration,
    warmup: o.warmup,
  });
  const orgIds = [...seeded.orgs.map((x) => x.id), seeded.hot.id];
  let stored = 0;
  let seededOrders = 0;
  const stopped = async () => {
    await server.stop();
    cleanups.delete(server.stop);
  };
  for (const size of o.sizes) {
    if (store === 'pglite') await stopped();
    const t0 = Date.now();
    log(`${store}: writing ${size - stored} earlier quotes in bulk (to ${size})`);
    const { added, c } = await exec(async (e) => {
      const added = await seedEarlier(e, {
        templateQuoteId: template,
        orgIds,
        count: size - stored,
        salt: `${Date.now().toString(36)}${steps.length}`,
        now: new Date(),
      });
      // The upkeep a store would have done by then (autovacuum; PGlite's maintenance task): measured after it, not during it.
      await e('vacuum (analyze)', []);
      // PostgreSQL: the bulk write leaves its pages dirty and its WAL to a checkpoint that would otherwise
      // flush them during the measured windows (a balance read, which touches no table the bulk wrote, ran
      // 0.68× at 1M without this): flushed now, as an idle server would have done by then.
      if (store === 'postgres') await e('checkpoint', []);
      return { added, c: await counts(e) };
    });
    stored = size;
    seededOrders += added.orders;
    const seedSec = Math.round((Date.now() - t0) / 100) / 10;
    log(`${store}: ${size}: quotes ${c.quotes}, orders ${c.orders}, postings ${c.postings}, events ${c.events} (${seedSec} s)`);
    if (store === 'pglite') {
      began = Date.now();
      windows = [];
      server = await start();
      cleanups.add(server.stop);
      runner.opts.url = server.url;
      runner.opts.pid = server.child.pid;
    }
    // Rounds of every scenario, one after another, so the machine's drift over a minute hits each alike;
    // each scenario's figure is its median window (one 5 s window moves ±20 % here with nothing changed).
    const rounds = new Map<ScenarioName, Array<Awaited<ReturnType<ScenarioRunner['run']>>>>();
    const failed = new Set<ScenarioName>();
    for (let round = 1; round <= o.rounds; round++) {
      for (const s of list) {
        if (failed.has(s)) continue;
        log(
          `${store} @ ${size}: ${s}, round ${round} of ${o.rounds} (${o.warmup} s warm-up, ${o.duration} s measured, ${o.connections} connections)`,
        );
        try {
          const out = await runner.run(s);
          windows.push(out.window);
          rounds.set(s, [...(rounds.get(s) ?? []), out]);
        } catch (e) {
          failed.add(s);
          rounds.delete(s);
          skipped.push({ name: s, store, reason: `failed at ${size}: ${(e as Error).message}` });
        }
      }
    }
    const outs = [...rounds].map(([s, runs]) => ({ s, out: medianWindow(runs) }));
    if (store === 'pglite') await stopped();
    const n = runner.orders;
    const inv = await check({ created: n.created + seededOrders, unanswered: n.sent - n.answered });
    const records = outs.map(({ s, out }) => {
      const key = `${size}/${s}`;
      const rec = recordOf(s, store, out.result, out.cpu, refs, inv, out.notes, pgFigures.get(key) ?? null);
      if (store === 'postgres') pgFigures.set(key, rec.reqPerSec);
      log(
        `${store} @ ${size}: ${s}: ${rec.reqPerSec.toFixed(0)} req/s, p99 ${rec.p99Ms} ms, ${rec.errors} errors, ledger ${inv.ok ? 'ok' : 'BROKEN'}`,
      );
      return rec;
    });
    steps.push({ store, size, counts: c, seedSec, scenarios: records });
  }
  await server.stop();
  cleanups.delete(server.stop);
  if (o.profile) addProfile(extra, store, profileDir, began, windows);
  return steps;
}

/**
 * The window whose rate is the median of a scenario's rounds (the lower middle of an even count), with
 * every round's rate in its notes.
 */
function medianWindow(runs: Array<Awaited<ReturnType<ScenarioRunner['run']>>>): Awaited<ReturnType<ScenarioRunner['run']>> {
  const sorted = [...runs].sort((a, b) => a.result.reqPerSec - b.result.reqPerSec);
  const mid = sorted[Math.floor((sorted.length - 1) / 2)]!;
  if (runs.length < 2) return mid;
  return {
    ...mid,
    notes: [...mid.notes, `median of ${runs.length} rounds: ${runs.map((r) => r.result.reqPerSec.toFixed(0)).join(', ')} req/s`],
  };
}

/** The backlog run: its endpoint count (the target's), and how long orders-spread fills it (under the receivers' hold). */
const DRAIN_ENDPOINTS = 10;
const DRAIN_FILL_SEC = 6;

/**
 * --webhooks on one store: the orders-spread rate with no endpoint (the reference), then the orders and
 * withdrawals workload with each number of endpoints, the bad receivers absent and then present.
 */
async function webhooksStoreRun(
  store: StoreKind,
  o: Options,
  adminUrl: string,
): Promise<{
  ordersSpreadReqPerSec: number;
  lifecycle: WebhooksRun;
  runs: WebhooksRun[];
  records: WebhooksRecord[];
  drain: WebhooksDrain;
}> {
  // Withdrawals go to a destination registered at seeding, usable at once.
  const { start, database } = await openStore(store, o, adminUrl, resolve(ROOT, 'bench/results'), { CAMBIO_DESTINATION_COOLDOWN_MS: '0' });
  const server = await start();
  cleanups.add(server.stop);
  const rx = new Receivers();
  await rx.start();
  cleanups.add(() => rx.close());
  log(`${store}: cambio at ${server.url}; seeding ${o.orgs} + 1 organizations through the operator API`);
  const seeded = await seed(server.url, o.orgs, { webhooks: true, withdrawals: true });
  const runner = new ScenarioRunner(seeded, {
    url: server.url,
    pid: server.child.pid,
    database,
    connections: o.connections,
    duration: o.duration,
    warmup: o.warmup,
  });
  log(`${store}: orders-spread with no endpoint (${o.warmup} s warm-up, ${o.duration} s measured, ${o.connections} connections)`);
  const ordersSpreadReqPerSec = Math.round((await runner.run('orders-spread')).result.reqPerSec);
  log(`${store}: orders-spread: ${ordersSpreadReqPerSec} req/s`);
  log(`${store}: orders and withdrawals through approval with no endpoint (the workload's own rate)`);
  const at = { store, url: server.url, runner, orgs: seeded.orgs, rx };
  const lifecycle = await webhooksRun(at, 0, false);
  // The backlog before the workload runs: after them the deliveries table holds every delivery they made,
  // dead rows included where autovacuum is off, and a statement that scans it reads them all.
  log(
    `${store}: a backlog at ${DRAIN_ENDPOINTS} endpoints + slow + failing: orders-spread for ${DRAIN_FILL_SEC} s with the healthy receivers hanging, then released`,
  );
  const drain = await webhooksDrain(at, DRAIN_ENDPOINTS, {
    connections: o.connections,
    fillSec: DRAIN_FILL_SEC,
  });
  const runs: WebhooksRun[] = [];
  const records: WebhooksRecord[] = [];
  for (const n of o.endpoints) {
    const without = await webhooksRun(at, n, false);
    const withBad = await webhooksRun(at, n, true);
    runs.push(without, withBad);
    records.push(webhooksRecord(withBad, without));
  }
  await server.stop();
  cleanups.delete(server.stop);
  return { ordersSpreadReqPerSec, lifecycle, runs, records, drain };
}

async function webhooksMain(o: Options, adminUrl: string): Promise<void> {
  const t0 = Date.now();
  const machine = { ...machineFacts(), postgres: await serverFacts(adminUrl) };
  const byStore: Array<Awaited<ReturnType<typeof webhooksStoreRun>> & { store: StoreKind }> = [];
  try {
    byStore.push({ store: 'postgres', ...(await webhooksStoreRun('postgres', o, adminUrl)) });
    await cleanup();
    if (o.pglite) byStore.push({ store: 'pglite', ...(await webhooksStoreRun('pglite', o, adminUrl)) });
  } finally {
    await cleanup();
  }
  const pg = byStore.find((b) => b.store === 'postgres')!;
  console.log('');
  console.log(
    'webhooks run: orders and withdrawals through approval to completion, with endpoints; commit → first attempt at the healthy receivers',
  );
  console.log('store     endpoints  events/s  deliveries/s  p50 ms  p99 ms  p99 ms without bad  undelivered');
  for (const b of byStore) {
    console.log(`${b.store.padEnd(9)} ${'none'.padStart(9)}  ${String(b.ordersSpreadReqPerSec).padStart(8)}   (orders-spread reference)`);
    console.log(
      `${b.store.padEnd(9)} ${'none'.padStart(9)}  ${String(b.lifecycle.eventsPerSec).padStart(8)}   (the workload with no endpoint: ${b.lifecycle.requestsPerSec} req/s)`,
    );
    for (const r of b.records) {
      console.log(
        `${r.store.padEnd(9)} ${String(r.endpoints).padStart(9)}  ${String(r.eventsPerSec).padStart(8)}  ${String(r.deliveriesPerSec).padStart(12)}  ` +
          `${String(r.p50Ms).padStart(6)}  ${String(r.p99Ms).padStart(6)}  ${String(r.p99MsWithoutBadReceivers).padStart(18)}  ${String(r.undelivered).padStart(11)}`,
      );
    }
  }
  for (const b of byStore)
    console.log(
      `${b.store}: a backlog of ${b.drain.backlog} deliveries at ${b.drain.endpoints} endpoints (+ slow + failing) drained at ${b.drain.deliveriesPerSec} deliveries/s ` +
        `(${(b.drain.deliveriesPerSec / b.ordersSpreadReqPerSec).toFixed(2)}× orders-spread), ${b.drain.undelivered} undelivered`,
    );
  const elapsedSec = Math.round((Date.now() - t0) / 1000);
  console.log(`\nwhole run: ${elapsedSec} s`);
  const out = resolve(ROOT, o.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify(
      {
        label: o.label || null,
        machine,
        settings: { durationSec: o.duration, warmupSec: o.warmup, connections: o.connections, organizations: o.orgs },
        ordersSpreadReqPerSec: pg.ordersSpreadReqPerSec,
        ordersSpreadReqPerSecByStore: Object.fromEntries(byStore.map((b) => [b.store, b.ordersSpreadReqPerSec])),
        workload: 'orders and withdrawals, each created, approved by the operator and completed (sandbox): six events per four requests',
        withoutEndpoints: byStore.map((b) => ({
          store: b.store,
          eventsPerSec: b.lifecycle.eventsPerSec,
          reqPerSec: b.lifecycle.requestsPerSec,
        })),
        runs: byStore.flatMap((b) => b.records),
        drain: byStore.map((b) => b.drain),
        measured: byStore.flatMap((b) => b.runs),
        elapsedSec,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`written to ${o.out}`);
  const bad = byStore.some((b) => b.drain.badSignatures > 0 || b.runs.some((r) => r.badSignatures > 0));
  process.exit(bad ? 1 : 0);
}

/** --venue: venue-priced against static quotes, and approval → venue order sent, at the Binance double. */
async function venueMain(o: Options, adminUrl: string) {
  const t0 = Date.now();
  const machine = { ...machineFacts(), postgres: await serverFacts(adminUrl) };
  let r;
  try {
    r = await venueRun(o, adminUrl, cleanups);
  } finally {
    await cleanup();
  }
  console.log('');
  console.log(
    `quotes, static BTC/USD : ${Math.round(r.staticQuotes.reqPerSec)} req/s, p50 ${r.staticQuotes.p50Ms} ms, p99 ${r.staticQuotes.p99Ms} ms, ${r.staticQuotes.errors} errors`,
  );
  console.log(
    `quotes, venue BTC/USDT : ${Math.round(r.venueQuotes.reqPerSec)} req/s, p50 ${r.venueQuotes.p50Ms} ms, p99 ${r.venueQuotes.p99Ms} ms, ${r.venueQuotes.errors} errors (${r.ratio}× static; target ≥ 0.8×, p99 ≤ 25 ms)`,
  );
  console.log(
    `approval → venue order sent: p50 ${r.approvalToSent.p50Ms} ms, p99 ${r.approvalToSent.p99Ms} ms over ${r.approvalToSent.samples} (target p99 ≤ 100 ms); approval answered p99 ${r.approvalAnswered.p99Ms} ms`,
  );
  const elapsedSec = Math.round((Date.now() - t0) / 1000);
  const out = resolve(ROOT, o.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify({ label: o.label || null, machine, settings: { durationSec: o.duration, warmupSec: o.warmup, connections: o.connections }, mode: 'venue', ...r, elapsedSec }, null, 2)}\n`,
  );
  console.log(`written to ${o.out}`);
  process.exit(0);
}

/**
 * --log on PostgreSQL: the orders-spread load against the running service (its appender on, as always),
 * sampling every 250 ms how long the oldest journal entry not yet in the log has waited; then how long after
 * the load the log holds every entry. The orders' req/s is this run's, to compare with a run before the log.
 */
async function logKeepsUp(o: Options, adminUrl: string): Promise<LogKeepsUp> {
  const { start, exec } = await openStore('postgres', o, adminUrl, resolve(ROOT, 'bench/results'));
  const server = await start();
  cleanups.add(server.stop);
  try {
    const seeded = await seed(server.url, o.orgs);
    const runner = new ScenarioRunner(seeded, {
      url: server.url,
      pid: server.child.pid,
      connections: o.connections,
      duration: o.duration,
      warmup: o.warmup,
    });
    return await exec(async (q) => {
      const lagMs = async (): Promise<number> => {
        const r = await q(
          `select coalesce(extract(epoch from clock_timestamp() - e.created_at) * 1000, 0)::float8 as lag from log_head h
          left join lateral (select created_at from journal_entries j where (j.txid, j.seq) > (h.last_txid, h.last_seq) order by j.txid, j.seq limit 1) e on true`,
          [],
        );
        return Number((r[0] as { lag: number }).lag);
      };
      const samples: number[] = [];
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          samples.push(await lagMs());
          await new Promise((r) => setTimeout(r, 250));
        }
      })();
      const run = await runner.run('orders-spread');
      sampling = false;
      await sampler;
      const end = Date.now();
      while ((await lagMs()) > 0 && Date.now() - end < 120_000) await new Promise((r) => setTimeout(r, 100));
      const caughtUpMs = Date.now() - end;
      const count = Number(((await q('select count(*)::int as n from journal_entries', []))[0] as { n: number }).n);
      const size = Number(((await q('select size::int as n from log_head', []))[0] as { n: number }).n);
      if (size !== count) throw new Error(`the log holds ${size} of ${count} entries two minutes after the load`);
      const sorted = [...samples].sort((a, b) => a - b);
      return {
        ordersSpreadReqPerSec: Math.round(run.result.reqPerSec),
        entries: count,
        lagMaxMs: Math.round(sorted[sorted.length - 1] ?? 0),
        lagP50Ms: Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0),
        caughtUpMsAfterLoad: caughtUpMs,
      };
    });
  } finally {
    await server.stop();
    cleanups.delete(server.stop);
  }
}
interface LogKeepsUp {
  ordersSpreadReqPerSec: number;
  entries: number;
  lagMaxMs: number;
  lagP50Ms: number;
  caughtUpMsAfterLoad: number;
}

/** --log: the journal log's costs on each store (bench/src/log-bench.ts), printed and written to --out. */
async function logMain(o: Options, adminUrl: string): Promise<void> {
  log(
    `postgres: orders-spread with the log appending (${o.warmup} s warm-up, ${o.duration} s measured, ${o.connections} connections, ${o.orgs} organizations)`,
  );
  const keepsUp = await logKeepsUp(o, adminUrl);
  log(
    `postgres: orders-spread ${keepsUp.ordersSpreadReqPerSec} req/s; log lag p50 ${keepsUp.lagP50Ms} ms, max ${keepsUp.lagMaxMs} ms during the load; every entry logged ${keepsUp.caughtUpMsAfterLoad} ms after it`,
  );
  const records: LogBenchRecord[] = [];
  for (const store of ['postgres', ...(o.pglite ? ['pglite'] : [])] as StoreKind[]) {
    log(`${store}: ${o.log.entries} entries to append, a log of ${o.log.logSize} leaves, ${o.log.orgs} organizations × 2 assets`);
    const r = await logBench(store, adminUrl, o.log);
    records.push(r);
    log(
      `${store}: append ${r.append.entriesPerSec} entries/s; proof p50 ${r.proof.p50Ms.toFixed(2)} ms p99 ${r.proof.p99Ms.toFixed(2)} ms at ${r.proof.logSize}; snapshot ${r.snapshot.seconds.toFixed(1)} s for ${r.snapshot.organizations} × ${r.snapshot.assets}`,
    );
  }
  const out = resolve(ROOT, o.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify({ at: new Date().toISOString(), machine: machineFacts(), options: o.log, keepsUp, records }, null, 2)}\n`,
  );
  log(`written ${o.out}`);
}

async function main() {
  let o: Options | null;
  try {
    o = parseOptions(process.argv.slice(2));
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (!o) {
    console.log(USAGE);
    return;
  }
  process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));
  const adminUrl = process.env.DATABASE_URL || DEFAULT_ADMIN_URL;
  if (o.mode === 'webhooks') return webhooksMain(o, adminUrl);
  if (o.mode === 'venue') return venueMain(o, adminUrl);
  if (o.mode === 'log') return logMain(o, adminUrl);
  const t0 = Date.now();
  const machine = { ...machineFacts(), postgres: await serverFacts(adminUrl) };
  const refs: References = { helloWorld: null, pgbench: null };
  const notes: string[] = [];
  const skipped: Skipped[] = [];
  const extra: { profile?: string } = {};
  const records: ScenarioRecord[] = [];
  const steps: GrowthStep[] = [];
  const threads = Math.min(o.pgbenchClients, availableParallelism());
  try {
    if (o.hello) {
      log(`reference: Fastify hello-world (${o.warmup} s warm-up, ${o.duration} s, ${o.connections} connections)`);
      refs.helloWorld = (await helloWorld(o)).reqPerSec;
    }
    if (o.pgbench) {
      const bin = await findPgbench();
      if (!bin) notes.push('pgbench not found (PATH, /usr/lib/postgresql/*/bin): the database references are skipped');
      else {
        log(
          `reference: pgbench -s ${o.pgbenchScale}, ${o.pgbenchClients} clients, ${threads} threads, TPC-B / -S / same-row, ${o.duration} s each`,
        );
        const db = await createDatabase(adminUrl, 'cambio_bench_pgbench');
        cleanups.add(db.drop);
        refs.pgbench = await pgbench(bin, db.url, { duration: o.duration, clients: o.pgbenchClients, threads, scale: o.pgbenchScale });
        await db.drop();
        cleanups.delete(db.drop);
      }
    }
    if (o.mode === 'growth') {
      const pgFigures = new Map<string, number>();
      steps.push(...(await growthRun('postgres', o, refs, adminUrl, pgFigures, skipped, extra)));
      await cleanup();
      if (o.pglite) steps.push(...(await growthRun('pglite', o, refs, adminUrl, pgFigures, skipped, extra)));
      records.push(...steps.flatMap((s) => s.scenarios));
    } else {
      const pgFigures = new Map<ScenarioName, number>();
      records.push(...(await storeRun('postgres', o, refs, adminUrl, pgFigures, skipped, extra)));
      await cleanup();
      if (o.pglite) records.push(...(await storeRun('pglite', o, refs, adminUrl, pgFigures, skipped, extra)));
    }
  } finally {
    await cleanup();
  }

  console.log('');
  console.log(
    `${o.mode} run: ${o.mode === 'cold' ? 'a fresh database, orders first' : o.mode === 'growth' ? `sizes ${o.sizes.join(', ')}, median of ${o.rounds} rounds (each size's scenarios against the targets, then the growth table)` : 'every scenario'}`,
  );
  printTable(records, refs);
  const verdicts = o.mode === 'growth' ? judge(steps) : [];
  if (o.mode === 'growth') printGrowth(steps, verdicts);
  for (const s of skipped) console.log(`  skipped ${s.store}/${s.name}: ${s.reason}`);
  for (const n of notes) console.log(`  note: ${n}`);
  if (extra.profile) console.log(`\n${extra.profile}`);
  const elapsedSec = Math.round((Date.now() - t0) / 1000);
  console.log(`\nwhole run: ${elapsedSec} s`);

  const out = resolve(ROOT, o.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify(
      {
        label: o.label || null,
        ...(o.experimentPrepared
          ? { experiment: 'prepared: named prepared statements injected by bench/src/prepared-preload.ts (what-if, not the product)' }
          : {}),
        machine,
        settings: {
          durationSec: o.duration,
          warmupSec: o.warmup,
          connections: o.connections,
          organizations: o.orgs,
          pgbenchClients: o.pgbenchClients,
          pgbenchThreads: threads,
          pgbenchScale: o.pgbenchScale,
        },
        references: { helloWorldReqPerSec: refs.helloWorld, pgbench: refs.pgbench },
        mode: o.mode,
        scenarios: o.mode === 'growth' ? [] : records,
        ...(o.mode === 'growth' ? { growth: { sizes: o.sizes, rounds: o.rounds, steps, verdicts } } : {}),
        skipped,
        notes,
        ...(extra.profile ? { profile: extra.profile } : {}),
        elapsedSec,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`written to ${o.out}`);
  if (o.mode === 'growth') {
    const svg = out.replace(/\.json$/, '') + '.svg';
    writeFileSync(
      svg,
      growthSvg(
        verdicts,
        `${o.label ? `${o.label}; ` : ''}${o.duration} s windows, median of ${o.rounds}, ${o.connections} connections, ${new Date().toISOString().slice(0, 10)}`,
      ),
    );
    console.log(`plot written to ${svg.startsWith(ROOT) ? svg.slice(ROOT.length) : svg}`);
  }
  // A broken invariant or a scenario that failed fails the run; a scenario whose endpoint is not built yet does not.
  const broken = records.some((r) => !r.invariants.ok) || skipped.some((s) => s.reason.startsWith('failed'));
  process.exit(broken ? 1 : 0);
}

await main();
