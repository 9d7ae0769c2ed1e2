import { sql, type Kysely } from 'kysely';

/**
 * What an organization chose for its reports (docs/api-guide.md, Valuation and statements): the
 * currency its balances are valued in and the language of its statements. A row only once chosen;
 * without one the defaults apply (USD when listed, the reader's language).
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table if not exists organization_reporting (
      organization_id text primary key references organizations (id),
      reporting_currency text,
      language text,
      updated_at timestamptz not null,
      updated_by text not null
    )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
