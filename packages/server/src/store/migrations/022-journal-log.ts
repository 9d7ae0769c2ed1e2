import { sql, type Kysely } from 'kysely';

/**
 * The journal log (docs/transparency.md): every journal entry becomes a leaf of an RFC 9162 Merkle tree.
 *
 * - `journal_entries.txid`: the writing transaction, as events carry theirs (migration 011). The log
 *   takes entries in (txid, seq) order, and only those of transactions older than every one still
 *   running, so an entry whose sequence number was drawn before a long transaction committed is never
 *   passed over: it waits until its transaction is over, then joins the log in its place. Entries
 *   written before this migration all carry the migration's own transaction, so they join in seq order.
 * - `log_leaves`: leaf index → entry and the leaf hash as logged.
 * - `log_nodes`: the hash of every complete subtree, (level, index), level 0 the leaf hashes: a proof
 *   reads O(log n) of them (domain/transparency/merkle.ts).
 * - `log_head`: one row, the tree's size, its right edge (the complete subtrees' hashes, largest first,
 *   concatenated) and the (txid, seq) of the last entry logged. Appenders lock it FOR UPDATE, so two
 *   instances append one after the other and never fork the log.
 * - `log_checkpoints`: every signed checkpoint (size, root, the note as served).
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table journal_entries add column txid bigint not null default (pg_current_xact_id()::text::bigint)`.execute(db);
  await sql`create index journal_entries_log_order on journal_entries (txid, seq)`.execute(db);
  await sql`create table log_leaves (
    idx bigint primary key,
    entry_id text not null unique references journal_entries(id),
    leaf_hash bytea not null)`.execute(db);
  await sql`create table log_nodes (
    level smallint not null,
    idx bigint not null,
    hash bytea not null,
    primary key (level, idx))`.execute(db);
  await sql`create table log_head (
    id integer primary key check (id = 1),
    size bigint not null,
    frontier bytea not null,
    last_txid bigint not null,
    last_seq bigint not null)`.execute(db);
  await sql`insert into log_head (id, size, frontier, last_txid, last_seq) values (1, 0, ''::bytea, -1, 0)`.execute(db);
  await sql`create table log_checkpoints (
    size bigint primary key,
    root bytea not null,
    note text not null,
    created_at timestamptz not null)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
