import { sql, type Kysely } from 'kysely';

/**
 * Idempotency keys are claimed by the request's own transaction (store/idempotency-store.ts): a row in
 * flight is either a transaction still open, which holds it, or work committed whose answer was never kept.
 * Neither lapses, so a claim has no lease. Keys in flight under the old protocol, whose lease named them,
 * are forgotten (their requests are long gone by the time this runs).
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`delete from idempotency_keys where state = 'in_flight'`.execute(db);
  await sql`alter table idempotency_keys drop column lease_until`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
