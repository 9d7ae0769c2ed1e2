import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { lockDirectory } from './data-dir-lock.ts';
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
    // The lock is released even when closing the database fails.
    return { db, kind: 'pglite', close: async () => { try { await db.destroy(); } finally { unlock(); } } };
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

export { DataDirLockedError } from './data-dir-lock.ts';
