import { sql, type Kysely } from 'kysely';

/**
 * Several venues, best execution (docs/market.md): the venue a quote was priced at (and so its order's,
 * where it executes and nowhere else), and what every connected venue offered for it at that moment, in
 * the order the venues are listed, kept with the quote (an accepted quote stays, its order points at it).
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table quotes add column if not exists venue text`.execute(db);
  await sql`create table if not exists quote_offers (
    quote_id text not null references quotes(id) on delete cascade,
    position integer not null,
    venue text not null,
    rate_quote_minor numeric(78,0),
    amount_base_minor numeric(78,0),
    amount_quote_minor numeric(78,0),
    proceeds_quote_minor numeric(78,0),
    left_out text,
    detail text,
    primary key (quote_id, position)
  )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
