import { join } from 'node:path';
import pg from 'pg';

/** Runs one parameterised statement on a store: PostgreSQL through pg, PGlite by opening its directory (the server must be stopped). */
export type Exec = (text: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>;

export async function withPostgres<T>(url: string, f: (exec: Exec) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await f(async (t, p) => (await c.query(t, p)).rows);
  } finally {
    await c.end();
  }
}

export async function withPglite<T>(dataDir: string, f: (exec: Exec) => Promise<T>): Promise<T> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(join(dataDir, 'pgdata'));
  try {
    return await f(async (t, p) => (await db.query<Record<string, unknown>>(t, p)).rows);
  } finally {
    await db.close();
  }
}

/** How many rows the growing tables hold. */
export interface StoreCounts {
  quotes: number;
  orders: number;
  postings: number;
  events: number;
  journalEntries: number;
  holds: number;
}

export async function counts(exec: Exec): Promise<StoreCounts> {
  const r = (
    await exec(
      `select (select count(*) from quotes)::int as quotes, (select count(*) from orders)::int as orders,
    (select count(*) from postings)::int as postings, (select count(*) from events)::int as events,
    (select count(*) from journal_entries)::int as journal_entries, (select count(*) from holds)::int as holds`,
      [],
    )
  )[0]!;
  return {
    quotes: Number(r.quotes),
    orders: Number(r.orders),
    postings: Number(r.postings),
    events: Number(r.events),
    journalEntries: Number(r.journal_entries),
    holds: Number(r.holds),
  };
}

/**
 * `count` earlier quotes, written in one statement as the app would have written them over the last
 * 20 hours, copied from `templateQuoteId` (a quote the API made: same pair, decimals, rate and amounts),
 * spread over `orgIds` in turn. Every second one was accepted: its order is pending approval and holds
 * the base amount, with the hold, the journal entry (`order_hold`: available −a, held +a, as
 * domain/ledger/entries.ts holdEntry makes it), its two postings and the balances moved by the same amounts. The orders
 * table's trigger writes each order's `order.created` event. The unaccepted half expired within the
 * purge's retention (a day), so the background purge keeps them. Ids are the app's shape
 * (`quo_…`, unique per `salt`). The ledger checks (invariants.ts) hold afterwards.
 */
export async function seedEarlier(
  exec: Exec,
  o: { templateQuoteId: string; orgIds: string[]; count: number; salt: string; now: Date },
): Promise<{ quotes: number; orders: number }> {
  const stepMs = (20 * 3600 * 1000) / Math.max(1, o.count);
  const rows = await exec(
    `
    with t as (select * from quotes where id = $1),
    g as materialized (
      select g.i, ($2::text[])[1 + g.i % cardinality($2::text[])] as org,
        $3::timestamptz - ($4::int - g.i) * $5::float8 * interval '1 millisecond' as at,
        $6::text || lpad(to_hex(g.i), 8, '0') || substr(md5(g.i::text || $6::text), 1, 12) as tail
      from generate_series(1, $4::int) as g(i)),
    q as (
      insert into quotes (id, organization_id, base_symbol, quote_symbol, base_decimals, quote_decimals, rate_quote_minor,
        amount_base_minor, amount_quote_minor, expires_at, consumed_at, created_at)
      select 'quo_' || g.tail, g.org, t.base_symbol, t.quote_symbol, t.base_decimals, t.quote_decimals, t.rate_quote_minor,
        t.amount_base_minor, t.amount_quote_minor, g.at + interval '30 seconds',
        case when g.i % 2 = 0 then g.at + interval '1 second' end, g.at
      from g cross join t order by g.i
      returning 1),
    c as materialized (select g.*, g.at + interval '1 second' as placed_at, t.* from g cross join t where g.i % 2 = 0),
    h as (
      insert into holds (id, organization_id, asset_symbol, amount, state, created_at, updated_at)
      select 'hld_' || tail, org, base_symbol, amount_base_minor, 'active', placed_at, placed_at from c order by i
      returning 1),
    je as (
      insert into journal_entries (id, kind, organization_id, reference_id, memo, created_at)
      select 'je_' || tail, 'order_hold', org, 'ord_' || tail, null, placed_at from c order by i
      returning 1),
    p as (
      insert into postings (entry_id, owner_id, asset_symbol, account_kind, amount, created_at, entry_kind, reference_id, memo)
      select 'je_' || c.tail, c.org, c.base_symbol, v.kind, v.unit * c.amount_base_minor, c.placed_at, 'order_hold', 'ord_' || c.tail, null
      from c cross join (values ('available', -1, 1), ('held', 1, 2)) as v(kind, unit, k) order by c.i, v.k
      returning 1),
    o as (
      insert into orders (id, organization_id, quote_id, hold_id, state, base_symbol, base_decimals, amount_base_minor,
        quote_symbol, quote_decimals, amount_quote_minor, rate_quote_minor, proceeds_quote_minor, reason, created_at, updated_at)
      select 'ord_' || tail, org, 'quo_' || tail, 'hld_' || tail, 'pending_approval', base_symbol, base_decimals, amount_base_minor,
        quote_symbol, quote_decimals, amount_quote_minor, rate_quote_minor, null, null, placed_at, placed_at from c order by i
      returning 1),
    total as materialized (select org, base_symbol, sum(amount_base_minor) as amount from c group by 1, 2),
    debit as (
      update accounts a set balance = a.balance - total.amount from total
      where a.owner_id = total.org and a.asset_symbol = total.base_symbol and a.kind = 'available'
      returning 1),
    held as (
      insert into accounts (owner_id, asset_symbol, kind, balance)
      select org, base_symbol, 'held', amount from total order by 1, 2
      on conflict (owner_id, asset_symbol, kind) do update set balance = accounts.balance + excluded.balance
      returning 1)
    select (select count(*) from q)::int as quotes, (select count(*) from o)::int as orders,
      (select count(*) from debit)::int as debited, (select count(*) from total)::int as owners,
      (select count(*) from h)::int + (select count(*) from je)::int + (select count(*) from p)::int + (select count(*) from held)::int as other`,
    [o.templateQuoteId, o.orgIds, o.now.toISOString(), o.count, stepMs, o.salt],
  );
  const r = rows[0]!;
  if (Number(r.debited) !== Number(r.owners))
    throw new Error(`bulk seeding: ${String(r.debited)} of ${String(r.owners)} available balances could be debited (funding too small?)`);
  return { quotes: Number(r.quotes), orders: Number(r.orders) };
}
