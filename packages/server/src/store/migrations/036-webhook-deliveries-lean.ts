import { sql, type Kysely } from 'kysely';

/**
 * Deliveries are claimed per endpoint (migration 024's index), so the index of every pending delivery by
 * due time is read by nothing; each delivery inserted, claimed and finished still wrote entries in it.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists webhook_deliveries_due`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
