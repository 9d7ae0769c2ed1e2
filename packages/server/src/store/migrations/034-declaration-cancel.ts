import { sql, type Kysely } from 'kysely';

/**
 * A declaration its organization no longer means to send is closed as `cancelled`: it stops matching at
 * once, and its amount stays out of new tails until its own expiry plus the quarantine (choosing a tail
 * reads `expires_at`, declarations-store.ts), so a transfer already on its way never matches someone else's declaration.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table deposit_declarations drop constraint if exists deposit_declarations_state_check`.execute(db);
  await sql`alter table deposit_declarations add constraint deposit_declarations_state_check check (state in ('open','matched','expired','cancelled'))`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
