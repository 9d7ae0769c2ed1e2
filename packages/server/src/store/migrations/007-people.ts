import { sql, type Kysely } from 'kysely';

/**
 * People sign in as themselves (docs/design/people-and-apps.md).
 * - members gain a status (invited → active → removed); a removed member's keys and sessions stop.
 * - staff: the operator's people, with a role (viewer, approver, admin).
 * - credentials: one row per person (member or staff): the password's scrypt hash, the TOTP secret
 *   sealed (and one pending confirmation), the last TOTP step used (a code is never accepted twice), and
 *   the recovery codes' hashes.
 * - invitations: a one-time token (its hash only), 7 days.
 * - sessions: server-side; the cookie holds an id whose hash is the key here; idle and absolute expiry.
 * - staff_tokens: personal bearer tokens `ops_<prefix>.<secret>` of a staff person (secret hashed).
 * - sign_in_failures: throttling per account and per address, shared by every instance.
 * - organizations.require_totp; api_keys.last_used_at.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table organizations add column require_totp boolean not null default false;
    alter table members add column status text not null default 'invited' check (status in ('invited','active','removed'));
    alter table api_keys add column last_used_at timestamptz;
    create index members_email on members (email);

    create table staff (
      id text primary key, seq bigserial not null, name text not null, email text not null,
      role text not null check (role in ('viewer','approver','admin')),
      status text not null check (status in ('invited','active','removed')),
      created_at timestamptz not null, updated_at timestamptz not null);
    create unique index staff_email on staff (email);

    create table credentials (
      subject_type text not null check (subject_type in ('member','staff')),
      subject_id text not null,
      password_hash text,
      totp_secret_sealed text,
      totp_pending_sealed text,
      totp_last_step bigint,
      recovery_hashes jsonb,
      updated_at timestamptz not null,
      primary key (subject_type, subject_id));

    create table invitations (
      token_hash text primary key,
      subject_type text not null check (subject_type in ('member','staff')),
      subject_id text not null,
      expires_at timestamptz not null, used_at timestamptz, created_at timestamptz not null);
    create index invitations_subject on invitations (subject_type, subject_id);

    create table sessions (
      id_hash text primary key,
      kind text not null check (kind in ('member','staff')),
      subject_id text not null,
      created_at timestamptz not null, last_seen_at timestamptz not null, expires_at timestamptz not null, ended_at timestamptz);
    create index sessions_subject on sessions (kind, subject_id) where ended_at is null;

    create table staff_tokens (
      id text primary key, seq bigserial not null, staff_id text not null references staff(id), name text not null,
      prefix text not null unique, secret_hash text not null,
      created_at timestamptz not null, last_used_at timestamptz, revoked_at timestamptz);

    create table sign_in_failures (
      key text primary key, failures integer not null, window_start timestamptz not null, locked_until timestamptz);
  `.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
