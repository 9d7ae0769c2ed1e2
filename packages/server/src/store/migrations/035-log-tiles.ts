import { sql, type Kysely } from 'kysely';

/**
 * The journal log keeps the hashes of complete subtrees of height 4 and more in `log_nodes`; a lower one
 * is folded from the 16 or fewer leaf hashes under it (one range of `log_leaves`, which holds every leaf
 * hash once). A proof still reads O(log n) rows, and appending writes a node row for every 16 leaves
 * instead of about two per leaf: the log's writes no longer weigh on the orders that make its entries.
 *
 * `log_leaves.entry_id` loses its foreign key: the appender writes a leaf only for an entry it has just
 * read in the same transaction, journal entries are never deleted, and the check was a lookup per leaf.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`delete from log_nodes where level < 4`.execute(db);
  await sql`alter table log_leaves drop constraint if exists log_leaves_entry_id_fkey`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
