import { sql, type Kysely } from 'kysely';

/**
 * Idempotency-Key (docs/api-guide.md): one row per scope (an organization, a staff person, the bootstrap
 * token) and key. `fingerprint` is the hash of method, path and body; `state` is `in_flight` while the
 * first request runs (until `lease_until`), then `done` with the answer kept until `expires_at`.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table idempotency_keys (
    scope text not null,
    key text not null,
    fingerprint text not null,
    state text not null check (state in ('in_flight', 'done')),
    lease_until timestamptz not null,
    status integer,
    response text,
    created_at timestamptz not null,
    expires_at timestamptz not null,
    primary key (scope, key)
  )`.execute(db);
  await sql`create index idempotency_keys_expiry on idempotency_keys (expires_at)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
