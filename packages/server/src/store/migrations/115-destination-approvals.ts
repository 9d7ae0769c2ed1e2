import { sql, type Kysely } from 'kysely';

/**
 * A destination under the organization's `destination` rule (docs/controls.md): `pending_approval` until
 * enough members approve it (its cooldown starts then), `rejected` when one rejects it; every other
 * destination is `active`, as all were before.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table withdrawal_destinations add column if not exists state text not null default 'active'
    check (state in ('pending_approval', 'active', 'rejected'))`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
