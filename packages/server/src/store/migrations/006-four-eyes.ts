import { sql, type Kysely } from 'kysely';

/**
 * Four-eyes (docs/design/people-and-apps.md). `approval_policies`: per asset, the amount from which an order's base amount or
 * a withdrawal's amount needs two approvals. `approvals`: who approved which order or withdrawal and
 * when; one row per person and request (the primary key refuses the same person twice). The staff
 * person is named as written at the time (no foreign key: the record outlives a removed person).
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table approval_policies (
      asset_symbol text primary key,
      second_approval_from_minor numeric(78,0) not null check (second_approval_from_minor >= 0),
      updated_at timestamptz not null);
    create table approvals (
      subject_type text not null check (subject_type in ('order','withdrawal')),
      subject_id text not null,
      staff_id text not null,
      staff_name text not null,
      created_at timestamptz not null,
      primary key (subject_type, subject_id, staff_id));
  `.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
