import { sql, type Kysely } from 'kysely';

/**
 * On PGlite a claimed Idempotency-Key is held in memory and its row is inserted once, answered
 * (store/idempotency-store.ts): no update needs room on the page, so pages are filled (migration 015's
 * fillfactor is for PostgreSQL, where a claim's row is inserted and then answered in place).
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const r = await sql<{ v: string }>`select version() as v`.execute(db);
  if (r.rows[0]?.v.includes('PGlite')) await sql`alter table idempotency_keys reset (fillfactor)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
