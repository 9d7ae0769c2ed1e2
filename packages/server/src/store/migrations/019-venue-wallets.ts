import { sql, type Kysely } from 'kysely';

/**
 * A deposit wallet whose address is read from the CCXT venue (docs/market.md `source: venue`): the
 * address is re-read from the venue and follows it when it changes there; `operator` wallets keep
 * the address a person typed.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table deposit_wallets add column source text not null default 'operator' check (source in ('operator','venue'))`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
