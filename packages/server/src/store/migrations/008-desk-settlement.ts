import { sql, type Kysely } from 'kysely';

/**
 * Production (docs/design/money-and-states.md): the desk records where and how an approved order executed, and the bank
 * transfer that paid a withdrawal out. Withdrawals gain the state `failed` (a payout that did not
 * happen: the hold goes back). Every reference is recorded once, with the state change it completes.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table orders add column venue text, add column venue_reference text;
    alter table withdrawals add column payout_reference text;
  `.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
