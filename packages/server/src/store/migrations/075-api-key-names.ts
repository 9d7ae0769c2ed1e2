import { sql, type Kysely } from 'kysely';

/** An API key may be named by who issues it ("ERP payments"), so a list of keys says what each is for. */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table api_keys add column if not exists name text`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
