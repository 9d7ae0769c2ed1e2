import type pg from 'pg';
import type { Created, History } from './history.ts';

/**
 * The invariants, read from the database on one consistent snapshot (REPEATABLE READ, read only).
 * Each returns the problems it found; an empty list is a check passed.
 */
type Q = (text: string, values?: unknown[]) => Promise<any[]>;
type Invariant = { name: string; run: (q: Q, ctx: Ctx) => Promise<string[]> };
/** sandbox: the simulated venue keeps its own books; production: the desk executes and pays out (docs/design/money-and-states.md), no venue books. */
export type Mode = 'sandbox' | 'production';
interface Ctx {
  seen: Map<Created, Map<string, string>>;
  decisions: Map<string, { approved: number; rejected: number }>;
  history: History;
  final: boolean;
  mode: Mode;
}

const big = (v: unknown) => BigInt(String(v ?? '0'));
const add = (m: Map<string, bigint>, k: string, v: bigint) => m.set(k, (m.get(k) ?? 0n) + v);

/** Order and withdrawal states in which the hold is still active (the amount is held, nothing left yet). */
const HELD_STATES = ['pending_approval', 'approved'];

/** The platform's postings on one of its accounts in the venue's fee entries, per asset (docs/design/money-and-states.md). */
const VENUE_FEES = `select p.asset_symbol, sum(p.amount)::text as s from postings p join journal_entries e on e.id = p.entry_id
  where e.kind = 'venue_fee' and p.owner_id = 'platform' and p.account_kind = $1 group by 1`;

/** Per asset, what the recorded flows say the platform holds at the market: arrivals and adjustments in, completed withdrawals out, fills (base out, proceeds in). */
async function recordedFlows(q: Q): Promise<Map<string, bigint>> {
  const flows = new Map<string, bigint>();
  for (const r of await q(
    `select p.asset_symbol, sum(p.amount)::text as s from postings p join journal_entries e on e.id = p.entry_id where e.kind = 'adjustment' and p.account_kind = 'available' group by 1`,
  ))
    add(flows, r.asset_symbol, big(r.s));
  for (const r of await q(`select asset_symbol, sum(amount_minor)::text as s from deposits group by 1`))
    add(flows, r.asset_symbol, big(r.s));
  for (const r of await q(`select asset_symbol, sum(amount_minor)::text as s from withdrawals where state = 'completed' group by 1`))
    add(flows, r.asset_symbol, -big(r.s));
  for (const r of await q(`select base_symbol, sum(amount_base_minor)::text as s from orders where state = 'completed' group by 1`))
    add(flows, r.base_symbol, -big(r.s));
  for (const r of await q(`select quote_symbol, sum(proceeds_quote_minor)::text as s from orders where state = 'completed' group by 1`))
    add(flows, r.quote_symbol, big(r.s));
  // The venue's fees (a crypto withdrawal's network fee, an order's fee in a third asset) leave what the platform holds there.
  for (const r of await q(VENUE_FEES, ['market'])) add(flows, r.asset_symbol, -big(r.s));
  return flows;
}

const invariants: Invariant[] = [
  {
    name: 'every journal entry sums to zero per asset',
    run: async (q) => {
      const bad = await q(
        `select entry_id, asset_symbol, sum(amount)::text as s from postings group by entry_id, asset_symbol having sum(amount) <> 0 limit 5`,
      );
      const thin = await q(
        `select e.id from journal_entries e left join postings p on p.entry_id = e.id group by e.id having count(p.id) < 2 limit 5`,
      );
      return [
        ...bad.map((r) => `entry ${r.entry_id} sums to ${r.s} ${r.asset_symbol}`),
        ...thin.map((r) => `entry ${r.id} has fewer than two postings`),
      ];
    },
  },
  {
    name: 'every balance is the sum of its postings',
    run: async (q) => {
      const rows = await q(`
        select coalesce(a.owner_id, p.owner_id) as owner, coalesce(a.asset_symbol, p.asset_symbol) as asset, coalesce(a.kind, p.account_kind) as kind,
               coalesce(a.balance, 0)::text as balance, coalesce(p.s, 0)::text as postings
        from accounts a full join (select owner_id, asset_symbol, account_kind, sum(amount) as s from postings group by 1, 2, 3) p
          on p.owner_id = a.owner_id and p.asset_symbol = a.asset_symbol and p.account_kind = a.kind
        where coalesce(a.balance, 0) <> coalesce(p.s, 0) limit 5`);
      return rows.map((r) => `account ${r.owner}/${r.asset}/${r.kind} is ${r.balance} but its postings sum to ${r.postings}`);
    },
  },
  {
    name: 'no organization balance is negative',
    run: async (q) =>
      (
        await q(
          `select owner_id, asset_symbol, kind, balance::text as b from accounts where owner_id <> 'platform' and balance < 0 limit 5`,
        )
      ).map((r) => `${r.owner_id} ${r.kind} ${r.asset_symbol} is ${r.b}`),
  },
  {
    name: 'held equals the active holds and the pending requests',
    run: async (q) => {
      const held = new Map<string, bigint>();
      const holds = new Map<string, bigint>();
      const pending = new Map<string, bigint>();
      for (const r of await q(`select owner_id, asset_symbol, balance::text as b from accounts where kind = 'held'`))
        add(held, `${r.owner_id} ${r.asset_symbol}`, big(r.b));
      for (const r of await q(
        `select organization_id, asset_symbol, sum(amount)::text as s from holds where state = 'active' group by 1, 2`,
      ))
        add(holds, `${r.organization_id} ${r.asset_symbol}`, big(r.s));
      for (const r of await q(
        `select organization_id, base_symbol as a, sum(amount_base_minor)::text as s from orders where state = any($1) group by 1, 2`,
        [HELD_STATES],
      ))
        add(pending, `${r.organization_id} ${r.a}`, big(r.s));
      for (const r of await q(
        `select organization_id, asset_symbol as a, sum(amount_minor)::text as s from withdrawals where state = any($1) group by 1, 2`,
        [HELD_STATES],
      ))
        add(pending, `${r.organization_id} ${r.a}`, big(r.s));
      const out: string[] = [];
      for (const k of new Set([...held.keys(), ...holds.keys(), ...pending.keys()])) {
        const a = held.get(k) ?? 0n;
        const b = holds.get(k) ?? 0n;
        const c = pending.get(k) ?? 0n;
        if (a !== b || b !== c) out.push(`${k}: held account ${a}, active holds ${b}, pending requests ${c}`);
      }
      // Each request's hold is in the state its request says: active while pending, captured once completed, released once refused.
      const mism = await q(
        `
        select 'order' as t, o.id, o.state, h.state as hs from orders o left join holds h on h.id = o.hold_id
        where h.state is distinct from case when o.state = any($1) then 'active' when o.state = 'completed' then 'captured' else 'released' end
        union all
        select 'withdrawal', w.id, w.state, h.state from withdrawals w left join holds h on h.id = w.hold_id
        where h.state is distinct from case when w.state = any($1) then 'active' when w.state = 'completed' then 'captured' else 'released' end
        limit 5`,
        [HELD_STATES],
      );
      out.push(...mism.map((r) => `${r.t} ${r.id} is ${r.state} but its hold is ${r.hs ?? 'missing'}`));
      const orphans = await q(
        `select id from holds h where not exists (select 1 from orders o where o.hold_id = h.id) and not exists (select 1 from withdrawals w where w.hold_id = h.id) limit 5`,
      );
      out.push(...orphans.map((r) => `hold ${r.id} belongs to no request`));
      return out;
    },
  },
  {
    name: 'every request is held once and settled or released at most once',
    run: async (q) => {
      const rows = await q(`
        with e as (select reference_id, kind, count(*) as n from journal_entries where reference_id is not null group by 1, 2)
        select 'order' as t, o.id, o.state,
          coalesce(max(n) filter (where kind = 'order_hold'), 0) as hold, coalesce(max(n) filter (where kind = 'order_settlement'), 0) as settle,
          coalesce(max(n) filter (where kind = 'order_release'), 0) as rel
        from orders o left join e on e.reference_id = o.id group by o.id, o.state
        union all
        select 'withdrawal', w.id, w.state,
          coalesce(max(n) filter (where kind = 'withdrawal_hold'), 0), coalesce(max(n) filter (where kind = 'withdrawal_settlement'), 0),
          coalesce(max(n) filter (where kind = 'withdrawal_release'), 0)
        from withdrawals w left join e on e.reference_id = w.id group by w.id, w.state`);
      const out: string[] = [];
      for (const r of rows) {
        const [hold, settle, rel] = [Number(r.hold), Number(r.settle), Number(r.rel)];
        const want = r.state === 'completed' ? [1, 1, 0] : r.state === 'rejected' || r.state === 'failed' ? [1, 0, 1] : [1, 0, 0];
        if (hold !== want[0] || settle !== want[1] || rel !== want[2])
          out.push(`${r.t} ${r.id} (${r.state}) has ${hold} hold, ${settle} settlement and ${rel} release entries`);
        if (out.length >= 5) break;
      }
      const strays = await q(`
        select e.id, e.kind from journal_entries e
        where (e.kind like 'order\\_%' and not exists (select 1 from orders o where o.id = e.reference_id))
           or (e.kind like 'withdrawal\\_%' and not exists (select 1 from withdrawals w where w.id = e.reference_id))
           or (e.kind like 'deposit%' and not exists (select 1 from deposits d where d.id = e.reference_id))
        limit 5`);
      out.push(...strays.map((r) => `entry ${r.id} (${r.kind}) refers to no request`));
      return out;
    },
  },
  {
    name: 'every arrival is credited exactly once',
    run: async (q) => {
      const rows = await q(`
        select d.id, d.state, d.declaration_id,
          (select count(*) from journal_entries e where e.reference_id = d.id and e.kind = 'deposit') as credit,
          (select count(*) from journal_entries e where e.reference_id = d.id and e.kind = 'deposit_unattributed') as unatt,
          (select count(*) from journal_entries e where e.reference_id = d.id and e.kind = 'deposit_attribution') as attr
        from deposits d`);
      const out: string[] = [];
      for (const r of rows) {
        const got = [Number(r.credit), Number(r.unatt), Number(r.attr)].join(',');
        const want = r.state === 'unattributed' ? ['0,1,0'] : ['1,0,0', '0,1,1'];
        if (!want.includes(got)) out.push(`deposit ${r.id} (${r.state}) has credit,unattributed,attribution entries ${got}`);
        if (out.length >= 5) break;
      }
      const decl = await q(`
        select c.id, c.state, d.id as dep, d.amount_minor::text as amt, c.expected_amount_minor::text as exp, d.organization_id as dorg, c.organization_id as corg
        from deposit_declarations c left join deposits d on d.id = c.deposit_id
        where (c.state = 'matched') <> (d.id is not null) or (d.id is not null and (d.amount_minor <> c.expected_amount_minor or d.organization_id <> c.organization_id or d.declaration_id <> c.id))
        limit 5`);
      out.push(
        ...decl.map(
          (r) =>
            `declaration ${r.id} (${r.state}) and deposit ${r.dep ?? '-'} disagree (amount ${r.amt ?? '-'} vs ${r.exp}, org ${r.dorg ?? '-'} vs ${r.corg})`,
        ),
      );
      const open = await q(
        `select organization_id, count(*) as n from deposit_declarations where state = 'open' group by 1 having count(*) > 1 limit 5`,
      );
      out.push(...open.map((r) => `${r.organization_id} has ${r.n} open declarations`));
      return out;
    },
  },
  {
    name: 'the books agree with the venue (minus the market account = venue balance)',
    // Production has no venue books: the desk reports its balances to a reconciliation (the invariant below).
    run: async (q, ctx) =>
      ctx.mode === 'production'
        ? []
        : (
            await q(`
        select coalesce(a.asset_symbol, v.asset_symbol) as asset, coalesce(-a.balance, 0)::text as books, coalesce(v.amount, 0)::text as venue
        from (select asset_symbol, balance from accounts where owner_id = 'platform' and kind = 'market') a
        full join venue_balances v on v.asset_symbol = a.asset_symbol
        where coalesce(-a.balance, 0) <> coalesce(v.amount, 0)`)
          ).map((r) => `${r.asset}: books say the platform holds ${r.books} at the market, the venue says ${r.venue}`),
  },
  {
    name: 'totals change only by adjustments, arrivals, completed withdrawals and executed orders',
    run: async (q) => {
      const owed = new Map<string, bigint>();
      for (const r of await q(`select asset_symbol, sum(balance)::text as s from accounts where kind <> 'market' group by 1`))
        add(owed, r.asset_symbol, big(r.s));
      const flows = await recordedFlows(q);
      const out: string[] = [];
      for (const a of new Set([...owed.keys(), ...flows.keys()])) {
        if ((owed.get(a) ?? 0n) !== (flows.get(a) ?? 0n))
          out.push(`${a}: accounts total ${owed.get(a) ?? 0n}, recorded flows total ${flows.get(a) ?? 0n}`);
      }
      return out;
    },
  },
  {
    name: "the platform's margin accounts balance (revenue is proceeds minus the quoted amounts of completed orders, less the venue's fees; minus the market account is what the recorded flows say)",
    run: async (q) => {
      const out: string[] = [];
      const revenue = new Map<string, bigint>();
      const margin = new Map<string, bigint>();
      for (const r of await q(`select asset_symbol, balance::text as b from accounts where owner_id = 'platform' and kind = 'revenue'`))
        add(revenue, r.asset_symbol, big(r.b));
      for (const r of await q(
        `select quote_symbol, sum(proceeds_quote_minor - amount_quote_minor)::text as s from orders where state = 'completed' group by 1`,
      ))
        add(margin, r.quote_symbol, big(r.s));
      // The venue's fees are the platform's cost: negative revenue, in an entry of their own.
      for (const r of await q(VENUE_FEES, ['revenue'])) add(margin, r.asset_symbol, big(r.s));
      for (const a of new Set([...revenue.keys(), ...margin.keys()])) {
        if ((revenue.get(a) ?? 0n) !== (margin.get(a) ?? 0n))
          out.push(`${a}: revenue ${revenue.get(a) ?? 0n}, margin of completed orders ${margin.get(a) ?? 0n}`);
      }
      const market = new Map<string, bigint>();
      for (const r of await q(`select asset_symbol, balance::text as b from accounts where owner_id = 'platform' and kind = 'market'`))
        add(market, r.asset_symbol, -big(r.b));
      const flows = await recordedFlows(q);
      for (const a of new Set([...market.keys(), ...flows.keys()])) {
        if ((market.get(a) ?? 0n) !== (flows.get(a) ?? 0n))
          out.push(`${a}: the books say the platform holds ${market.get(a) ?? 0n} at the market, its recorded flows ${flows.get(a) ?? 0n}`);
      }
      return out;
    },
  },
  {
    name: 'every 201 a client saw exists',
    run: async (q, ctx) => {
      const out: string[] = [];
      for (const [kind, ids] of ctx.seen) {
        if (ids.size === 0) continue;
        const { table, id } = TABLES[kind];
        const found = new Set((await q(`select ${id} as id from ${table} where ${id} = any($1)`, [[...ids.keys()]])).map((r) => r.id));
        for (const x of ids.keys()) if (!found.has(x)) out.push(`${kind} ${x} answered 201 but is not in the database`);
      }
      return out.slice(0, 10);
    },
  },
  {
    name: 'nothing exists that no request created',
    run: async (q, ctx) => {
      // Taken after the snapshot: a row committed before it was announced by now, or its request is lost or still in flight.
      const seen = ctx.history.created;
      const out: string[] = [];
      for (const [kind, { table, id, sig, where }] of Object.entries(TABLES) as Array<[Created, (typeof TABLES)[Created]]>) {
        const allowance = ctx.history.unseenAllowance(kind);
        for (const r of await q(`select ${id} as id, ${sig} as sig from ${table} ${where ?? ''}`)) {
          if (seen.get(kind)!.has(r.id)) continue;
          const left = allowance.get(r.sig) ?? 0;
          if (left <= 0) out.push(`${kind} ${r.id} (${r.sig}) exists but no request that could have created it is lost or in flight`);
          else allowance.set(r.sig, left - 1);
        }
      }
      return out.slice(0, 10);
    },
  },
  {
    name: 'every decision that answered 200 is the state of its request',
    run: async (q, ctx) => {
      const ids = [...ctx.decisions.keys()];
      if (ids.length === 0) return [];
      const state = new Map<string, string>();
      for (const r of await q(
        `select id, state from orders where id = any($1) union all select id, state from withdrawals where id = any($1)`,
        [ids],
      ))
        state.set(r.id, r.state);
      const out: string[] = [];
      for (const [id, d] of ctx.decisions) {
        const s = state.get(id);
        if (d.rejected > 0 && s !== 'rejected') out.push(`${id} was rejected with 200 but is ${s}`);
        if (d.approved > 0 && !['approved', 'completed', 'failed'].includes(s ?? 'missing'))
          out.push(`${id} was approved with 200 but is ${s}`);
      }
      return out.slice(0, 10);
    },
  },
  {
    name: 'every order consumed its quote',
    run: async (q) =>
      (await q(`select o.id from orders o left join quotes qt on qt.id = o.quote_id where qt.consumed_at is null limit 5`)).map(
        (r) => `order ${r.id} exists but its quote is not consumed`,
      ),
  },
];

export const TABLES: Record<Created, { table: string; id: string; sig: string; where?: string }> = {
  order: { table: 'orders', id: 'id', sig: 'quote_id' },
  withdrawal: { table: 'withdrawals', id: 'id', sig: `organization_id || '|' || destination_id || '|' || amount_minor::text` },
  declaration: {
    table: 'deposit_declarations',
    id: 'id',
    sig: `organization_id || '|' || asset_symbol || '|' || declared_amount_minor::text`,
  },
  destination: { table: 'withdrawal_destinations', id: 'id', sig: `organization_id || '|' || label` },
  deposit: { table: 'deposits', id: 'id', sig: 'txid' },
  adjustment: { table: 'journal_entries', id: 'id', sig: `coalesce(memo, '')`, where: `where kind = 'adjustment'` },
};

export const INVARIANT_NAMES = invariants.map((i) => i.name);

/** Half-done work that the service should have finished by itself once the load stops. */
export async function stuck(client: pg.Client): Promise<string[]> {
  const r = await client.query(
    `select 'order' as t, id, state from orders where state = 'approved' union all select 'withdrawal', id, state from withdrawals where state = 'approved'`,
  );
  return r.rows.map((x) => `${x.t} ${x.id} is still ${x.state} after the recovery wait`);
}

/** Runs every invariant on one snapshot. */
export async function checkOnce(
  client: pg.Client,
  history: History,
  final: boolean,
  mode: Mode = 'sandbox',
): Promise<{ checks: number; problems: string[] }> {
  const seen = history.snapshotCreated();
  const decisions = new Map([...history.decisions].map(([k, v]) => [k, { ...v }]));
  const q: Q = async (text, values) => (await client.query(text, values as unknown[])).rows;
  await client.query('begin isolation level repeatable read read only');
  const problems: string[] = [];
  let checks = 0;
  try {
    await q('select 1'); // the snapshot is taken here, after `seen` was copied
    for (const inv of invariants) {
      checks++;
      for (const p of await inv.run(q, { seen, decisions, history, final, mode })) problems.push(`${inv.name}: ${p}`);
    }
  } finally {
    await client.query('rollback');
  }
  return { checks, problems };
}
