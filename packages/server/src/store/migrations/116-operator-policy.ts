import { sql, type Kysely } from 'kysely';

/**
 * The operator's policy (docs/controls.md): the published rules (one row, locked while a draft is
 * published, so two publications happen one after the other), the drafts admins write and another admin
 * publishes, and the adjustments and attributions that wait for enough staff approvals.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table if not exists operator_policy (
    id integer primary key check (id = 1),
    rules jsonb not null,
    draft_id text,
    published_at timestamptz,
    published_by text,
    published_by_name text
  )`.execute(db);
  await sql`insert into operator_policy (id, rules) values (1, '[]'::jsonb) on conflict do nothing`.execute(db);
  await sql`create table if not exists operator_policy_drafts (
    id text primary key,
    seq bigserial,
    rules jsonb not null,
    author text not null,
    author_name text not null,
    state text not null check (state in ('draft', 'published', 'superseded')),
    published_by text,
    published_by_name text,
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`.execute(db);
  await sql`create table if not exists operator_requests (
    id text primary key,
    seq bigserial,
    kind text not null check (kind in ('adjustment', 'attribution')),
    state text not null check (state in ('pending_approval', 'applied', 'rejected')),
    organization_id text not null,
    asset_symbol text not null,
    amount_minor numeric(78,0) not null,
    subject_id text,
    note text not null default '',
    required integer not null check (required between 1 and 5),
    roles jsonb not null,
    approvals jsonb not null default '[]'::jsonb,
    requested_by text not null,
    requested_by_name text not null,
    reason text,
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`.execute(db);
  await sql`create index if not exists operator_requests_pending on operator_requests (created_at) where state = 'pending_approval'`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
