import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * The tables every order, quote and balance read or write: their dead rows and statistics matter most.
 * The journal log's head row is rewritten after every appended batch, and its nodes are read by every proof.
 */
export const HOT_TABLES = [
  'quotes',
  'orders',
  'holds',
  'accounts',
  'journal_entries',
  'postings',
  'events',
  'idempotency_keys',
  'log_head',
  'log_nodes',
] as const;

/**
 * What PostgreSQL's autovacuum does for us, done for the embedded store, which runs none:
 * VACUUM reclaims the dead rows that consumed and purged quotes leave, ANALYZE keeps the statistics
 * the planner reads. One table at a time, so a request waits at most for one table's pass. PostgreSQL
 * does not need it (its autovacuum is there): db.ts runs it for PGlite only, as OpenedDb.maintain.
 */
export async function vacuumHotTables(db: Kysely<Database>): Promise<string[]> {
  for (const t of HOT_TABLES) await sql`vacuum (analyze) ${sql.table(t)}`.execute(db);
  return [...HOT_TABLES];
}
