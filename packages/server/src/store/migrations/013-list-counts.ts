import { sql, type Kysely } from 'kysely';

/**
 * A list's first page must cost the same however many rows the organization has. The page's
 * total (docs/design/money-and-states.md) was a count over every row of the organization; it is now kept as a count per
 * organization, written by the same statement that writes the rows (statement triggers, one upsert per
 * organization and statement, in owner order), so it is exact and committed with them. Orders,
 * withdrawals and postings are never deleted. The platform's own postings are not counted: no list shows them.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table list_counts (list text not null, owner_id text not null, n bigint not null, primary key (list, owner_id))`.execute(db);
  await sql`insert into list_counts (list, owner_id, n) select 'orders', organization_id, count(*) from orders group by 2`.execute(db);
  await sql`insert into list_counts (list, owner_id, n) select 'withdrawals', organization_id, count(*) from withdrawals group by 2`.execute(db);
  await sql`insert into list_counts (list, owner_id, n) select 'postings', owner_id, count(*) from postings where owner_id <> 'platform' group by 2`.execute(db);
  await sql`create function cambio_count_orders() returns trigger language plpgsql as $$
    begin
      insert into list_counts (list, owner_id, n) select 'orders', organization_id, count(*) from counted group by 2 order by 2
      on conflict (list, owner_id) do update set n = list_counts.n + excluded.n;
      return null;
    end $$`.execute(db);
  await sql`create trigger orders_counted after insert on orders referencing new table as counted for each statement execute function cambio_count_orders()`.execute(db);
  await sql`create function cambio_count_withdrawals() returns trigger language plpgsql as $$
    begin
      insert into list_counts (list, owner_id, n) select 'withdrawals', organization_id, count(*) from counted group by 2 order by 2
      on conflict (list, owner_id) do update set n = list_counts.n + excluded.n;
      return null;
    end $$`.execute(db);
  await sql`create trigger withdrawals_counted after insert on withdrawals referencing new table as counted for each statement execute function cambio_count_withdrawals()`.execute(db);
  await sql`create function cambio_count_postings() returns trigger language plpgsql as $$
    begin
      insert into list_counts (list, owner_id, n) select 'postings', owner_id, count(*) from counted where owner_id <> 'platform' group by 2 order by 2
      on conflict (list, owner_id) do update set n = list_counts.n + excluded.n;
      return null;
    end $$`.execute(db);
  await sql`create trigger postings_counted after insert on postings referencing new table as counted for each statement execute function cambio_count_postings()`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
