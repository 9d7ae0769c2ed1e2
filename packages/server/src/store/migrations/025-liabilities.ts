import { sql, type Kysely } from 'kysely';

/**
 * Proof of liabilities (docs/transparency.md): snapshots of what the platform owes each organization, one
 * Merkle sum tree per asset.
 *
 * - `liability_snapshots`: one row per snapshot, with the signed note as published. `daily` is the UTC
 *   day a daily snapshot was taken for: unique, so instances racing at midnight take one between them.
 * - `liability_assets`: per snapshot and asset, the published root, total and count of real leaves.
 * - `liability_levels`: the tree itself, one row per level (0 the leaves), its node hashes and sums each
 *   concatenated (32 bytes a node). Stored uncompressed out of line, a path reads one node per level by
 *   `substring` without loading the level.
 * - `liability_leaves`: which leaf is which organization's, and its amount (the salt is derived again).
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table liability_snapshots (
    id text primary key,
    taken_at timestamptz not null,
    daily date unique,
    note text not null)`.execute(db);
  await sql`create index liability_snapshots_taken on liability_snapshots (taken_at desc, id desc)`.execute(db);
  await sql`create table liability_assets (
    snapshot_id text not null references liability_snapshots(id),
    asset_symbol text not null,
    asset_decimals integer not null,
    root_hash bytea not null,
    total numeric(78,0) not null,
    leaf_count integer not null,
    primary key (snapshot_id, asset_symbol))`.execute(db);
  await sql`create table liability_levels (
    snapshot_id text not null references liability_snapshots(id),
    asset_symbol text not null,
    level smallint not null,
    hashes bytea not null,
    sums bytea not null,
    primary key (snapshot_id, asset_symbol, level))`.execute(db);
  await sql`alter table liability_levels alter column hashes set storage external`.execute(db);
  await sql`alter table liability_levels alter column sums set storage external`.execute(db);
  await sql`create table liability_leaves (
    snapshot_id text not null references liability_snapshots(id),
    organization_id text not null,
    asset_symbol text not null,
    leaf_index integer not null,
    amount numeric(78,0) not null,
    primary key (snapshot_id, organization_id, asset_symbol))`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
