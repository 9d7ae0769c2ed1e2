import { sql, type Kysely } from 'kysely';

/**
 * Witness cosignatures of the journal log's checkpoints (docs/transparency.md): per checkpoint size and
 * witness, the C2SP tlog-cosignature line the witness answered; `GET /transparency/checkpoint` serves them
 * after the log's own signature.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table log_cosignatures (
    size bigint not null,
    witness text not null,
    line text not null,
    created_at timestamptz not null,
    primary key (size, witness))`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
