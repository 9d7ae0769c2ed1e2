/**
 * Each list of the `lists` scenario alone (and the balances, for scale) on one store, after a bulk write of
 * `size` earlier quotes as the growth run writes them: req/s, p99 and CPU per request.
 * `node --import tsx bench/lists-split.ts [pglite|postgres] [size] [seconds] [connections]`; `PATHS=a,b` only
 * those paths; `PROFILE_DIR=<dir>` Cambio under --cpu-prof (prints where each window starts); `KEEP_DIR=<dir>`
 * the PGlite store in that directory, kept afterwards. Run it under `flock /tmp/cambio-bench.lock`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { counts, seedEarlier, withPglite, withPostgres, type Exec } from './src/bulk-seed.ts';
import { cpuPerRequest, cpuSnapshot } from './src/cpu.ts';
import { createDatabase, DEFAULT_ADMIN_URL } from './src/databases.ts';
import { runLoad } from './src/load.ts';
import { startCambio } from './src/processes.ts';
import { BASE, QUOTE, QUOTE_BASE_MINOR, seed } from './src/seed.ts';

const store = process.argv[2] ?? 'pglite';
const size = Number(process.argv[3] ?? 10000);
const seconds = Number(process.argv[4] ?? 4);
const connections = Number(process.argv[5] ?? 16);
const dir = process.env.KEEP_DIR || mkdtempSync(join(tmpdir(), 'cambio-split-'));
const db = store === 'postgres' ? await createDatabase(process.env.DATABASE_URL || DEFAULT_ADMIN_URL, 'cambio_bench') : null;
const prof = process.env.PROFILE_DIR ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', process.env.PROFILE_DIR] } : {};
let began = 0;
const start = () => {
  began = Date.now();
  return db ? startCambio({ databaseUrl: db.url }, prof) : startCambio({ dataDir: dir }, prof);
};
const exec = <T>(f: (e: Exec) => Promise<T>) => (db ? withPostgres(db.url, f) : withPglite(dir, f));
let seededKeys: unknown = null;
try {
  let server = await start();
  const seeded = await seed(server.url, 64);
  seededKeys = seeded.orgs.slice(0, 2);
  const made = await fetch(`${server.url}/api/v1/quotes`, {
    method: 'POST',
    headers: { 'x-api-key': seeded.orgs[0]!.key, 'content-type': 'application/json' },
    body: JSON.stringify({ baseSymbol: BASE, quoteSymbol: QUOTE, amountBaseMinor: QUOTE_BASE_MINOR }),
  });
  const template = ((await made.json()) as { data: { id: string } }).data.id;
  if (!db) await server.stop();
  const c = await exec(async (e) => {
    await seedEarlier(e, {
      templateQuoteId: template,
      orgIds: [...seeded.orgs.map((o) => o.id), seeded.hot.id],
      count: size,
      salt: 'x',
      now: new Date(),
    });
    await e('vacuum (analyze)', []);
    if (db) await e('checkpoint', []); // as the growth run: the bulk write flushed before the windows
    return counts(e);
  });
  console.log(store, size, JSON.stringify(c));
  if (!db) server = await start();
  for (const path of process.env.PATHS?.split(',') ?? [
    '/api/v1/orders',
    '/api/v1/withdrawals',
    '/api/v1/ledger',
    '/api/v1/events',
    '/api/v1/balances',
  ]) {
    let n = 0;
    const next = () => ({ method: 'GET' as const, path, key: seeded.orgs[n++ % seeded.orgs.length]!.key, kind: 'read' });
    await runLoad({ url: server.url, connections, duration: 1, next });
    const a = cpuSnapshot(server.child.pid, db?.name);
    if (process.env.PROFILE_DIR) console.log(`window from ${((Date.now() - began) / 1000).toFixed(1)} s`);
    const r = await runLoad({ url: server.url, connections, duration: seconds, next });
    const cpu = cpuPerRequest(a, cpuSnapshot(server.child.pid, db?.name), r.ok);
    console.log(
      `${path.padEnd(22)} ${r.reqPerSec.toFixed(0).padStart(6)} req/s  p99 ${r.p99Ms.toFixed(1).padStart(7)} ms  cambio ${cpu?.cambioUs} µs  postgres ${cpu?.postgresUs} µs  errors ${r.errors}`,
    );
  }
  await server.stop();
} finally {
  if (!process.env.KEEP_DIR) rmSync(dir, { recursive: true, force: true });
  else console.log('kept', dir, JSON.stringify(seededKeys));
  await db?.drop();
}
