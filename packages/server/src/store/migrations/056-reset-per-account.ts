import { sql, type Kysely } from 'kysely';

/**
 * A password-reset token belongs to one account: `subject_id` is the member (or staff person) whose link it
 * is, so a reset sets that account's password only, never every account that shares the email
 * (usecases/people/password-reset.ts). Tokens made before this have none and no longer work (they lived
 * 30 minutes at most): the person asks again.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table password_resets add column subject_id text`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
