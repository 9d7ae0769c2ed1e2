import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrationProvider } from './migrations/index.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import { preparingClient } from './prepared-client.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;
export interface OpenedDb { db: Db; kind: 'postgres' | 'pglite'; close(): Promise<void> }

// numeric and int8 stay strings: amounts become bigint in the store, never a JS number.
pg.types.setTypeParser(1700, (v: string) => v);
pg.types.setTypeParser(20, (v: string) => v);

export async function openDatabase(opts: { databaseUrl?: string | undefined; dataDir: string; poolSize?: number }): Promise<OpenedDb> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 16, Client: preparingClient() });
    // An idle connection the server terminates (restart, failover) must not take the process down;
    // the pool drops it and the next query opens a new one.
    pool.on('error', (e) => { console.error(`postgres: idle connection lost: ${e.message}`); });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    await migrate(db);
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  if (opts.dataDir === 'memory://') {
    const client = await PGlite.create();
    const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
    await migrate(db);
    return { db, kind: 'pglite', close: () => db.destroy() };
  }
  const dir = resolve(opts.dataDir);
  mkdirSync(dir, { recursive: true });
  const unlock = lockDirectory(dir);
  try {
    const client = await PGlite.create(join(dir, 'pgdata'));
    const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
    await migrate(db);
    return { db, kind: 'pglite', close: async () => { await db.destroy(); unlock(); } };
  } catch (e) {
    unlock();
    throw e;
  }
}

async function migrate(db: Db) {
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}

export class DataDirLockedError extends Error {}

/**
 * PGlite has no lock between processes, and two processes on one directory lose data. The lock file
 * holds the owner's pid; a lock whose process is gone is stale and taken over.
 */
function lockDirectory(dir: string): () => void {
  const file = join(dir, 'cambio.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(pid) && alive(pid)) {
        throw new DataDirLockedError(`the data directory ${dir} is in use by process ${pid}; stop it first, or set DATA_DIR to another directory (or DATABASE_URL to share a PostgreSQL server between processes)`);
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`could not lock the data directory ${dir}`);
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}
