import { sql, type Kysely } from 'kysely';

/**
 * The organization's own controls (docs/controls.md): its policy (ordered rules, one row per
 * organization), what waits for its members' approvals (one row per request, the approvals given so far
 * in it, locked while one is added), and policy changes that wait themselves.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table if not exists organization_policies (
    organization_id text primary key references organizations(id),
    rules jsonb not null,
    updated_at timestamptz not null,
    updated_by text not null
  )`.execute(db);
  await sql`create table if not exists organization_approvals (
    kind text not null,
    request_id text not null,
    organization_id text not null references organizations(id),
    initiator_member_id text not null,
    required integer not null check (required between 1 and 5),
    given jsonb not null default '[]'::jsonb,
    waiting_for text not null check (waiting_for in ('organization', 'operator')),
    rejected_by text,
    reason text,
    created_at timestamptz not null,
    updated_at timestamptz not null,
    primary key (kind, request_id)
  )`.execute(db);
  await sql`create index if not exists organization_approvals_waiting
    on organization_approvals (organization_id, created_at) where waiting_for = 'organization'`.execute(db);
  await sql`create table if not exists organization_policy_changes (
    id text primary key,
    organization_id text not null references organizations(id),
    rules jsonb not null,
    state text not null,
    created_by text not null,
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
