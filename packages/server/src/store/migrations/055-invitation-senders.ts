import { sql, type Kysely } from 'kysely';

/**
 * Who sent an invitation and to which address, so the invitations a member sends (new or resent) and
 * those an address receives can be counted over the last hour (usecases/members/invitation-limits.ts):
 * `invited_by` is the inviting member's actor, `email` the invitee's address (lower case). Both null for
 * invitations the operator sends and those made before this migration: those are not limited.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table invitations add column invited_by text, add column email text`.execute(db);
  await sql`create index invitations_invited_by on invitations (invited_by, created_at) where invited_by is not null`.execute(db);
  await sql`create index invitations_email on invitations (email, created_at) where email is not null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
