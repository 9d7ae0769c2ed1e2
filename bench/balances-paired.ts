/**
 * Balances against pgbench select-only, paired: the full run measures its references first and
 * the scenarios minutes later, so on a machine whose speed drifts (a shared VM) one ratio can land far
 * from another. Here each round runs both legs back to back, alternating which goes first (ABBA), and the
 * figure is the median of the rounds' ratios, as bench/idempotency.ts does for Idempotency-Key.
 * `node --import tsx bench/balances-paired.ts [seconds-per-leg=5] [rounds=6]`, DATABASE_URL as for
 * `npm run bench`; the same settings as the full run (64 connections, 64 organizations, pgbench -s 10,
 * 16 clients, one thread per CPU). Run it under `flock /tmp/cambio-bench.lock`.
 */
import { availableParallelism } from 'node:os';
import { cpuPerRequest, cpuSnapshot } from './src/cpu.ts';
import { createDatabase, DEFAULT_ADMIN_URL } from './src/databases.ts';
import { median, percentile, runLoad } from './src/load.ts';
import { startCambio } from './src/processes.ts';
import { findPgbench, pgbenchInit, selectOnlyTps } from './src/references.ts';
import { balancesCycle } from './src/scenarios.ts';
import { seed } from './src/seed.ts';

const seconds = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 6);
const admin = process.env.DATABASE_URL || DEFAULT_ADMIN_URL;
const bin = await findPgbench();
if (!bin) throw new Error('pgbench is not installed');

const pgb = await createDatabase(admin, 'cambio_bench_pgbench');
const db = await createDatabase(admin, 'cambio_bench');
const server = await startCambio({ databaseUrl: db.url });
try {
  await pgbenchInit(bin, pgb.url, 10);
  const seeded = await seed(server.url, 64);
  const cycle = balancesCycle(seeded.orgs);
  const select = () => selectOnlyTps(bin, pgb.url, { duration: seconds, clients: 16, threads: availableParallelism() });
  const balances = async () => {
    const a = cpuSnapshot(server.child.pid, db.name);
    const r = await runLoad({ url: server.url, connections: 64, duration: seconds, cycle });
    const cpu = cpuPerRequest(a, cpuSnapshot(server.child.pid, db.name), r.ok);
    return { ...r, cpu };
  };
  await runLoad({ url: server.url, connections: 64, duration: 3, cycle }); // warm-up
  await select();
  const ratios: number[] = [];
  const p99s: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const first = i % 4 === 0 || i % 4 === 3 ? 'select' : 'balances';
    const s1 = first === 'select' ? await select() : null;
    const b = await balances();
    const s = s1 ?? (await select());
    ratios.push(b.reqPerSec / s);
    p99s.push(b.p99Ms);
    const cpu = b.cpu
      ? `cambio ${b.cpu.cambioUs} µs, postgres ${b.cpu.postgresUs}, loadgen ${b.cpu.loadGeneratorUs}, others ${b.cpu.otherUs} (${b.cpu.othersPct} % of the machine)`
      : '';
    console.log(
      `round ${i + 1} (${first} first): balances ${b.reqPerSec.toFixed(0)} req/s, p99 ${b.p99Ms} ms, ${b.errors} errors; -S ${s.toFixed(0)} TPS; ratio ${(b.reqPerSec / s).toFixed(2)}; ${cpu}`,
    );
  }
  const sorted = [...p99s].sort((a, b) => a - b);
  console.log(
    `balances ÷ pgbench -S: median ${median(ratios).toFixed(2)} [${ratios.map((r) => r.toFixed(2)).join(' ')}]; p99 median ${median(p99s).toFixed(1)} ms, worst ${percentile(sorted, 1)} ms (target ≥ 0.6, ≤ 20 ms)`,
  );
} finally {
  await server.stop();
  await db.drop();
  await pgb.drop();
}
