import { sql, type Kysely } from 'kysely';

/** Staff role `auditor` (docs/operator-guide.md): reads everything, writes nothing but their own credentials. */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table staff drop constraint if exists staff_role_check`.execute(db);
  await sql`alter table staff add constraint staff_role_check check (role in ('viewer', 'approver', 'admin', 'auditor'))`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
