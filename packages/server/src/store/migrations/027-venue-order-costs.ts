import { sql, type Kysely } from 'kysely';

/**
 * Fees a venue charged for an order in an asset other than the pair's quote (Binance's BNB discount),
 * kept with the venue's other figures of the order (JSON: [{assetSymbol, amountMinor}]): the settlement
 * books them even when it happens after a restart, from the row alone. The desk lists the rows newest first.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table venue_orders add column costs text`.execute(db);
  await sql`create index venue_orders_updated on venue_orders (updated_at desc)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
