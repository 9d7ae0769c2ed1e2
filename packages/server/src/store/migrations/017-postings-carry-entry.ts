import { sql, type Kysely } from 'kysely';

/**
 * Each posting carries its journal entry's kind, reference and memo (entries are never changed once
 * written), so the ledger's page is one range of the owner's postings index with no lookup of each
 * posting's entry (those lookups cost one B-tree descent each, deeper as the journal grows).
 * Rows written before are filled from their entries here.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table postings add column entry_kind text, add column reference_id text, add column memo text`.execute(db);
  await sql`update postings p set entry_kind = e.kind, reference_id = e.reference_id, memo = e.memo
    from journal_entries e where e.id = p.entry_id`.execute(db);
  // Every posting has its entry (a foreign key), so every posting now has its kind; a writer that forgets it fails.
  await sql`alter table postings alter column entry_kind set not null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
