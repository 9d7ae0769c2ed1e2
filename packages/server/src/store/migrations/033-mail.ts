import { sql, type Kysely } from 'kysely';

/**
 * Mail for what people wait for (invitations, a forgotten password, decisions on their requests).
 * - mail_outbox: one row per message, written after the change it tells of committed; a background task
 *   sends it and retries. The message carries a link with a token, so it is kept sealed under the server
 *   secret and erased once sent or given up; what is left shows the operator what was tried.
 * - password_resets: a one-time token per request (its hash only), short-lived, per person kind and email.
 * - mail_cursor: how far the notifier has read the events (one row).
 * - events_mailed: finds the few event types that are mailed in commit order without reading the rest.
 * - members.lang, staff.lang: the language the person last signed in with, for the mails sent to them.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table mail_outbox (
      id text primary key,
      seq bigserial not null,
      kind text not null check (kind in ('invitation','password_reset','notification')),
      to_address text not null,
      sealed text,
      state text not null check (state in ('pending','sent','failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null,
      last_error text,
      created_at timestamptz not null,
      finished_at timestamptz);
    create index mail_outbox_due on mail_outbox (next_attempt_at) where state = 'pending';

    create table password_resets (
      token_hash text primary key,
      subject_type text not null check (subject_type in ('member','staff')),
      email text not null,
      expires_at timestamptz not null, used_at timestamptz, created_at timestamptz not null);
    create index password_resets_email on password_resets (subject_type, email) where used_at is null;

    create table mail_cursor (id integer primary key check (id = 1), txid bigint not null, seq bigint not null);
    create index events_mailed on events (txid, seq)
      where type in ('order.approved','order.rejected','withdrawal.approved','withdrawal.rejected','deposit.credited');

    alter table members add column lang text;
    alter table staff add column lang text;
  `.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
