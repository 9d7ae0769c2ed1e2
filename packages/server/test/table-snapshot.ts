import { sql } from 'kysely';
import type { Harness } from './harness.ts';

/**
 * Every table's whole content, hashed: a refused request must leave each one exactly as it was. Keys'
 * last use is written a few seconds late (keys-store.ts), so it is flushed first.
 */
export async function tableSnapshot(h: Harness): Promise<Record<string, string>> {
  await h.store.keys.flushLastUsed();
  const tables = await sql<{
    t: string;
  }>`select table_name as t from information_schema.tables where table_schema = 'public' and table_name not like 'kysely%' order by 1`.execute(
    h.store.db,
  );
  const parts = tables.rows.map(
    (r) => sql`select ${r.t} as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from ${sql.table(r.t)} x`,
  );
  const rows = await sql<{ t: string; h: string }>`${sql.join(parts, sql` union all `)}`.execute(h.store.db);
  return Object.fromEntries(rows.rows.map((r) => [r.t, r.h]));
}
