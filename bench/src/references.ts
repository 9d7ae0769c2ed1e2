import { execFile } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runLoad, type LoadResult } from './load.ts';
import { startHelloWorld } from './processes.ts';

const run = promisify(execFile);

/** The Fastify hello-world, same Node and same load settings as the scenarios: the HTTP layer's ceiling. */
export async function helloWorld(o: { connections: number; duration: number; warmup: number }): Promise<LoadResult> {
  const server = await startHelloWorld();
  try {
    const cycle = [{ method: 'GET' as const, path: '/', key: '', kind: 'hello' }];
    if (o.warmup > 0) await runLoad({ url: server.url, connections: o.connections, duration: o.warmup, cycle });
    return await runLoad({ url: server.url, connections: o.connections, duration: o.duration, cycle });
  } finally {
    await server.stop();
  }
}

/** pgbench on PATH, else in the usual Debian/Ubuntu place; null when absent. */
export async function findPgbench(): Promise<string | null> {
  try {
    const { stdout } = await run('which', ['pgbench']);
    if (stdout.trim()) return stdout.trim();
  } catch {
    /* not on PATH */
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const p = join(root, v, 'bin', 'pgbench');
    if (existsSync(p)) return p;
  }
  return null;
}

export interface PgbenchFigures {
  tpcb: number;
  selectOnly: number;
  sameRow: number;
  clients: number;
  threads: number;
  scale: number;
  version: string;
}

// Every transaction updates the one branch row: the database's own figure for a hot balance.
const SAME_ROW_SCRIPT = '\\set d random(1, 1)\nUPDATE pgbench_branches SET bbalance = bbalance + 1 WHERE bid = :d;\n';

function tpsOf(out: string): number {
  const m = /tps = ([0-9.]+) \(without initial connection time\)/.exec(out) ?? /tps = ([0-9.]+)/.exec(out);
  if (!m) throw new Error(`pgbench printed no tps:\n${out}`);
  return Number(m[1]);
}

/** pgbench select-only (-S) for `duration` seconds in a database `pgbench -i` made: its TPS. */
export async function selectOnlyTps(bin: string, url: string, o: { duration: number; clients: number; threads: number }): Promise<number> {
  return tpsOf(
    (await run(bin, ['-c', String(o.clients), '-j', String(o.threads), '-T', String(o.duration), '-S', url], { maxBuffer: 1 << 24 }))
      .stdout,
  );
}

/** pgbench -i at that scale: the tables the references read and write. */
export async function pgbenchInit(bin: string, url: string, scale: number): Promise<void> {
  await run(bin, ['-i', '-q', '-s', String(scale), url], { maxBuffer: 1 << 24 });
}

/** TPC-B (built in), select-only (-S) and same-row updates, each for `duration` seconds, in a database of their own. */
export async function pgbench(
  bin: string,
  url: string,
  o: { duration: number; clients: number; threads: number; scale: number },
): Promise<PgbenchFigures> {
  const version = (await run(bin, ['--version'])).stdout.trim();
  await pgbenchInit(bin, url, o.scale);
  const common = ['-c', String(o.clients), '-j', String(o.threads), '-T', String(o.duration)];
  const tpcb = tpsOf((await run(bin, [...common, url], { maxBuffer: 1 << 24 })).stdout);
  const selectOnly = await selectOnlyTps(bin, url, o);
  const script = join(tmpdir(), `cambio-bench-same-row-${process.pid}.sql`);
  writeFileSync(script, SAME_ROW_SCRIPT);
  const sameRow = tpsOf((await run(bin, [...common, '-n', '-f', script, url], { maxBuffer: 1 << 24 })).stdout);
  return { tpcb, selectOnly, sameRow, clients: o.clients, threads: o.threads, scale: o.scale, version };
}
