import { sql, type Kysely } from 'kysely';

/**
 * Deliveries are claimed per endpoint (a few in flight each), so a slow or dead receiver holds only its
 * own deliveries back: each endpoint's due deliveries are one range of an index, and the attempts in
 * flight (a claim is cleared when its attempt is recorded) are a small index of their own.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index webhook_deliveries_due_by_endpoint on webhook_deliveries (endpoint_id, next_attempt_at, id) where state = 'pending'`.execute(db);
  await sql`create index webhook_deliveries_in_flight on webhook_deliveries (endpoint_id) where claimed_until is not null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
