import { sql, type Kysely } from 'kysely';

/**
 * The simulated venue's record of each execution, keyed by order id: executing an order twice (a
 * retry after a crash between approval and settlement) returns the first outcome and never trades twice.
 * `booked_at`: when the fill moved the venue's balances, which happens in the order's settlement
 * transaction, so the venue's books and the platform's never disagree.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table venue_executions (
      order_id text primary key, base_symbol text not null, quote_symbol text not null,
      amount_base_minor numeric(78,0) not null, proceeds_quote_minor numeric(78,0),
      state text not null check (state in ('filled','refused')), reason text,
      created_at timestamptz not null, booked_at timestamptz);
    create index venue_executions_unbooked on venue_executions (base_symbol) where state = 'filled' and booked_at is null;
  `.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
