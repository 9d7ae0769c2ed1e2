import { sql, type Kysely } from 'kysely';

/**
 * Liabilities at a log size, in parts (docs/transparency.md):
 * - `liability_snapshots.tree_size`: the size of the journal log's checkpoint the snapshot's amounts are
 *   the postings under (0 for snapshots taken before this).
 * - `liability_leaves.part`: an organization's amount in an asset is split into 2 to 4 leaves, each a part
 *   numbered from 0; the key takes the part (earlier snapshots have the one part 0).
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table liability_snapshots add column tree_size bigint not null default 0`.execute(db);
  await sql`alter table liability_leaves add column part smallint not null default 0`.execute(db);
  await sql`alter table liability_leaves drop constraint liability_leaves_pkey`.execute(db);
  await sql`alter table liability_leaves add primary key (snapshot_id, organization_id, asset_symbol, part)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
