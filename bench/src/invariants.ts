import { join } from 'node:path';
import pg from 'pg';

type Query = (text: string) => Promise<Record<string, unknown>[]>;

export interface InvariantReport {
  ok: boolean;
  checks: Array<{ name: string; ok: boolean; detail?: string }>;
}

/**
 * The ledger's promises, checked in SQL after every scenario so that speed never hides a wrong result.
 * Each query returns the offending rows (none when the invariant holds).
 */
const CHECKS: Array<{ name: string; sql: string }> = [
  {
    name: 'no negative organization balance',
    sql: `select owner_id, asset_symbol, kind, balance::text from accounts where owner_id <> 'platform' and balance < 0 limit 5`,
  },
  {
    name: 'every journal entry sums to zero per asset',
    sql: `select entry_id, asset_symbol, sum(amount)::text as total from postings group by entry_id, asset_symbol having sum(amount) <> 0 limit 5`,
  },
  {
    name: 'every balance equals the sum of its postings',
    sql: `with p as (select owner_id, asset_symbol, account_kind, sum(amount) as total from postings group by 1, 2, 3)
          select coalesce(a.owner_id, p.owner_id) as owner_id, coalesce(a.asset_symbol, p.asset_symbol) as asset, coalesce(a.kind, p.account_kind) as kind,
                 coalesce(a.balance, 0)::text as balance, coalesce(p.total, 0)::text as postings
          from accounts a full join p on p.owner_id = a.owner_id and p.asset_symbol = a.asset_symbol and p.account_kind = a.kind
          where coalesce(a.balance, 0) <> coalesce(p.total, 0) limit 5`,
  },
  {
    name: 'held = sum of active holds',
    sql: `with h as (select organization_id, asset_symbol, sum(amount) as total from holds where state = 'active' group by 1, 2),
               a as (select owner_id, asset_symbol, balance from accounts where kind = 'held' and owner_id <> 'platform')
          select coalesce(a.owner_id, h.organization_id) as org, coalesce(a.asset_symbol, h.asset_symbol) as asset,
                 coalesce(a.balance, 0)::text as held, coalesce(h.total, 0)::text as holds
          from a full join h on h.organization_id = a.owner_id and h.asset_symbol = a.asset_symbol
          where coalesce(a.balance, 0) <> coalesce(h.total, 0) limit 5`,
  },
  {
    name: 'every pending order holds exactly its base amount',
    sql: `select o.id, o.amount_base_minor::text as amount, h.amount::text as hold, h.state from orders o left join holds h on h.id = o.hold_id
          where o.state = 'pending_approval' and (h.id is null or h.state <> 'active' or h.amount <> o.amount_base_minor or h.asset_symbol <> o.base_symbol) limit 5`,
  },
  {
    name: 'every accepted quote is consumed, once',
    sql: `select o.id, o.quote_id from orders o left join quotes q on q.id = o.quote_id where q.id is null or q.consumed_at is null or q.organization_id <> o.organization_id limit 5`,
  },
  {
    name: "every list's kept count equals its rows (the pages' totals)",
    sql: `with c as (select 'orders' as list, organization_id as owner_id, count(*) as n from orders group by 2
                     union all select 'withdrawals', organization_id, count(*) from withdrawals group by 2
                     union all select 'postings', owner_id, count(*) from postings where owner_id <> 'platform' group by 2)
          select coalesce(c.list, k.list) as list, coalesce(c.owner_id, k.owner_id) as owner, coalesce(c.n, 0)::text as rows, coalesce(k.n, 0)::text as kept
          from c full join list_counts k on k.list = c.list and k.owner_id = c.owner_id
          where coalesce(c.n, 0) <> coalesce(k.n, 0) limit 5`,
  },
];

/** POST /orders answered 201, and sent but never answered (in flight when a run stopped): see the last check. */
export interface OrderCounts {
  created: number;
  unanswered: number;
}

async function runChecks(query: Query, orders: OrderCounts | null): Promise<InvariantReport> {
  const checks: InvariantReport['checks'] = [];
  for (const c of CHECKS) {
    const rows = await query(c.sql);
    checks.push(rows.length === 0 ? { name: c.name, ok: true } : { name: c.name, ok: false, detail: JSON.stringify(rows) });
  }
  if (orders !== null) {
    // Every 201 is a row; a row without a 201 can only be a request whose answer was never read.
    const n = Number((await query('select count(*)::int as n from orders'))[0]!.n);
    const name = 'orders in the table = 201 answers (+ unanswered requests at most)';
    checks.push(
      n >= orders.created && n <= orders.created + orders.unanswered
        ? { name, ok: true }
        : { name, ok: false, detail: `${n} rows, ${orders.created} answered 201, ${orders.unanswered} never answered` },
    );
  }
  return { ok: checks.every((c) => c.ok), checks };
}

export async function checkPostgres(url: string, orders: OrderCounts | null): Promise<InvariantReport> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await runChecks(async (t) => (await c.query(t)).rows, orders);
  } finally {
    await c.end();
  }
}

/** The embedded store is one process's: the server must be stopped before this opens its directory. */
export async function checkPglite(dataDir: string, orders: OrderCounts | null): Promise<InvariantReport> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(join(dataDir, 'pgdata'));
  try {
    return await runChecks(async (t) => (await db.query<Record<string, unknown>>(t)).rows, orders);
  } finally {
    await db.close();
  }
}
