import { sql, type Kysely } from 'kysely';

/**
 * A declaration's expected amount stays out of use for a quarantine after it expires, matched or not
 * (domain/deposits/tail.ts, TAIL_QUARANTINE_MS). Choosing a tail reads the recent declarations of one
 * asset; this finds them by expiry, bounded by the window rather than by the asset's whole history,
 * and the amount in the index filters the band without reading the rows.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index declarations_asset_expiry on deposit_declarations (asset_symbol, expires_at, expected_amount_minor)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
