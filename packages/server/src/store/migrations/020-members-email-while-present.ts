import { sql, type Kysely } from 'kysely';

/**
 * An email is unique among an organization's members who are not removed: a removed member's row stays
 * (the audit trail and its keys name it), and the same person can be invited again as a new member.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table members drop constraint if exists members_organization_id_email_key`.execute(db);
  await sql`create unique index members_email_present on members (organization_id, email) where status <> 'removed'`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
