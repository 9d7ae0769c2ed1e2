import { sql, type Kysely } from 'kysely';

/** Unaccepted quotes past their retention are purged by a background task; this finds them without a scan. */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index quotes_unaccepted_expiry on quotes (expires_at) where consumed_at is null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
