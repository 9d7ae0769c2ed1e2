import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';

export interface TempDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function adminQuery(adminUrl: string, text: string): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return await c.query(text);
  } finally {
    await c.end();
  }
}

/** A fresh database `<prefix>_<random>` on the server of adminUrl; drop() removes it (even with sessions open). */
export async function createDatabase(adminUrl: string, prefix: string): Promise<TempDatabase> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    name,
    url: u.toString(),
    drop: async () => {
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/** Server version and the settings that shape its throughput, for the report. */
export async function serverFacts(adminUrl: string): Promise<Record<string, string>> {
  const facts: Record<string, string> = {};
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    facts.version = String((await c.query('select version() as v')).rows[0].v);
    for (const s of ['max_connections', 'shared_buffers', 'synchronous_commit', 'fsync', 'wal_level']) {
      facts[s] = String((await c.query(`show ${s}`)).rows[0][s]);
    }
  } finally {
    await c.end();
  }
  return facts;
}
