import { sql, type Kysely } from 'kysely';

/**
 * The sandbox decides requests whose amount ends in a magic figure (docs/sandbox.md) by sweeping the ones
 * still pending: these partial indexes hold only those, so a sweep reads a handful of rows however many
 * requests wait for a person. The predicates are the sweep's own (store/sandbox-store.ts), word for word.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index orders_sandbox_magic on orders (created_at)
    where state = 'pending_approval' and mod(amount_base_minor, 10000) in (1111, 2222, 3333)`.execute(db);
  await sql`create index withdrawals_sandbox_magic on withdrawals (created_at)
    where state = 'pending_approval' and mod(amount_minor, 10000) in (1111, 2222, 3333)`.execute(db);
  await sql`create index declarations_sandbox_magic on deposit_declarations (created_at)
    where state = 'open' and (mod(expected_amount_minor, 10000) = 1111 or mod(declared_amount_minor, 10000) = 1111)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
