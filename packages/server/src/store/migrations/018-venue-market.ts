import { sql, type Kysely } from 'kysely';

/**
 * Production at a real market (docs/market.md). A pair priced from a venue's order book names the venue's
 * market (`venue_symbol`) and how old a book may be (`max_book_age_ms`); its `mid_rate` is empty.
 *
 * `venue_orders`: one row per approved order sent to a CCXT venue, keyed by order id, which is also the
 * client order id at the venue. The row is written (state `sending`) before the order leaves, so a
 * crash or a lost answer leaves a trace that makes the next attempt look the order up instead of
 * sending it again. `lease_owner`/`lease_until` let one instance at a time work on a row: any number
 * of instances run the task, none submits twice.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table market_pairs add column venue_symbol text, add column max_book_age_ms integer`.execute(db);
  await sql`
    create table venue_orders (
      order_id text primary key, venue text not null, venue_symbol text not null, side text not null check (side in ('sell','buy')),
      amount_text text not null,
      state text not null check (state in ('new','sending','unknown','filled','refused','partial')),
      attempts integer not null default 0, sent_at timestamptz, recv_window_ms integer not null,
      venue_order_id text, executed_qty text, quote_qty text, proceeds_quote_minor numeric(78,0), reason text,
      lease_owner text, lease_until timestamptz, created_at timestamptz not null, updated_at timestamptz not null);
    create index venue_orders_open on venue_orders (updated_at) where state in ('new','sending','unknown');
  `.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
