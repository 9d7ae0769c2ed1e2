import { sql } from 'kysely';
import { holdEntry } from '../domain/ledger/entries.ts';
import { netChanges } from '../domain/ledger/entry.ts';
import { orderCaps } from '../domain/orders/order.ts';
import type { Organization } from '../domain/organizations/organization.ts';
import type { Ids } from '../domain/ports.ts';
import type { Db } from './db.ts';
import { reconciledSql } from './platform-state-store.ts';
import { quoteDecimalsCurrent } from './quotes-store.ts';

export interface Placement { org: Pick<Organization, 'id' | 'limits'>; quoteId: string }

// The hold entry of an order, as the domain writes it: what the batch posts for every order.
const SHAPE = holdEntry('order_hold', { organizationId: 'o', assetSymbol: 'A', amount: 1n, referenceId: 'r' });
const NET = netChanges(SHAPE).map((c) => `${c.ownerId}:${c.kind}:${c.amount}`).join(' ');
// The statement below moves `available` down and `held` up by the same amount; a different entry needs a different statement.
if (NET !== 'o:available:-1 o:held:1' || SHAPE.postings.some((p) => p.ownerId !== 'o' || p.assetSymbol !== 'A')) {
  throw new Error(`orders-batch.ts writes the hold entry as available -a, held +a; holdEntry now nets to: ${NET}`);
}
const POSTINGS = sql.join(SHAPE.postings.map((p) => sql`(${p.kind}::text, ${p.amount.toString()}::numeric)`));

/**
 * Places several orders in one statement, for requests that accept quotes at the same moment (one
 * round trip and one commit for all of them; on one organization, one lock of its balance row for
 * all of them instead of one after the other).
 *
 * Every order of the batch that can be placed for certain is placed: its quote is this
 * organization's, unused, unexpired, in the market's current decimals and within its cap, the platform is reconciled, and the
 * organization's available balance backs the sum of the batch's orders in that asset. Anything
 * else is answered null and is decided alone by the one-order statement, which knows the exact
 * reason (or places it, when only the batch's sum did not fit). Each quote appears once: the caller
 * sends a quote accepted twice at once to the one-order statement.
 *
 * Locks are taken in one order in every statement: the quotes, then the `available` rows sorted by
 * owner and asset (all of them before any `held` row, because `held` is written from an aggregate),
 * as the one-order statement and `netChanges` do.
 */
export async function placeBatch(db: Db, ids: Ids, at: Date, ps: Placement[]): Promise<(OrderRowOut | null)[]> {
  const ts = sql`${at.toISOString()}::timestamptz`;
  const rows = ps.map((p) => ({
    orderId: ids.next('ord'), holdId: ids.next('hld'), entryId: ids.next('je'), quoteId: p.quoteId, orgId: p.org.id,
    caps: JSON.stringify(Object.fromEntries(orderCaps(p.org.limits).map((c) => [c.asset, c.cap.toString()]))),
  }));
  const col = (k: keyof (typeof rows)[number]) => rows.map((r) => r[k]);
  const r = await sql<OrderRowOut & { ok: number }>`
    with input as materialized (
      select * from unnest(${col('orderId')}::text[], ${col('holdId')}::text[], ${col('entryId')}::text[],
        ${col('quoteId')}::text[], ${col('orgId')}::text[], ${col('caps')}::jsonb[]) as i(order_id, hold_id, entry_id, quote_id, org_id, caps)),
    q as materialized (
      select q.id, q.organization_id, q.base_symbol, q.base_decimals, q.amount_base_minor, q.quote_symbol, q.quote_decimals,
        q.amount_quote_minor, q.rate_quote_minor, i.order_id, i.hold_id, i.entry_id
      from input i join quotes q on q.id = i.quote_id and q.organization_id = i.org_id
      where q.consumed_at is null and q.expires_at > ${ts} and ${reconciledSql} and ${quoteDecimalsCurrent('q')}
        and (i.caps ->> q.base_symbol is null or q.amount_base_minor <= (i.caps ->> q.base_symbol)::numeric)
      order by q.id
      for update of q),
    need as materialized (select organization_id, base_symbol, sum(amount_base_minor) as total from q group by 1, 2),
    locked as materialized (
      select a.owner_id, a.asset_symbol, n.total from accounts a
      join need n on a.owner_id = n.organization_id and a.asset_symbol = n.base_symbol and a.kind = 'available'
      order by a.owner_id, a.asset_symbol
      for update of a),
    debit as (
      update accounts a set balance = a.balance - l.total from locked l
      where a.owner_id = l.owner_id and a.asset_symbol = l.asset_symbol and a.kind = 'available' and a.balance >= l.total
      returning a.owner_id, a.asset_symbol),
    ok as materialized (select q.* from q join debit d on d.owner_id = q.organization_id and d.asset_symbol = q.base_symbol),
    held as (
      insert into accounts (owner_id, asset_symbol, kind, balance)
      select organization_id, base_symbol, 'held', sum(amount_base_minor) from ok group by 1, 2 order by 1, 2
      on conflict (owner_id, asset_symbol, kind) do update set balance = accounts.balance + excluded.balance
      returning 1),
    consume as (update quotes set consumed_at = ${ts} from ok where quotes.id = ok.id returning 1),
    je as (
      insert into journal_entries (id, kind, organization_id, reference_id, memo, created_at)
      select entry_id, ${SHAPE.kind}::text, organization_id, order_id, null, ${ts} from ok
      returning id),
    p as (
      insert into postings (entry_id, owner_id, asset_symbol, account_kind, amount, created_at)
      select je.id, ok.organization_id, ok.base_symbol, v.kind, v.unit * ok.amount_base_minor, ${ts}
      from ok join je on je.id = ok.entry_id cross join (values ${POSTINGS}) as v(kind, unit)
      returning 1),
    h as (
      insert into holds (id, organization_id, asset_symbol, amount, state, created_at, updated_at)
      select hold_id, organization_id, base_symbol, amount_base_minor, 'active', ${ts}, ${ts} from ok
      returning id),
    o as (
      insert into orders (id, organization_id, quote_id, hold_id, state, base_symbol, base_decimals, amount_base_minor,
        quote_symbol, quote_decimals, amount_quote_minor, rate_quote_minor, proceeds_quote_minor, reason, created_at, updated_at)
      select order_id, organization_id, id, hold_id, 'pending_approval', base_symbol, base_decimals, amount_base_minor,
        quote_symbol, quote_decimals, amount_quote_minor, rate_quote_minor, null, null, ${ts}, ${ts} from ok
      returning id, organization_id, quote_id, hold_id, state, base_symbol, base_decimals, amount_base_minor,
        quote_symbol, quote_decimals, amount_quote_minor, rate_quote_minor, proceeds_quote_minor, reason, created_at, updated_at,
        venue, venue_reference),
    -- Every part wrote one row per placed order (and one posting per posting of the entry), or the statement aborts
    -- (1/0) and nothing is written: the caller then decides each order alone.
    guard as materialized (
      select 1 / (case when (select count(*) from o) = (select count(*) from ok)
        and (select count(*) from consume) = (select count(*) from ok)
        and (select count(*) from h) = (select count(*) from ok)
        and (select count(*) from je) = (select count(*) from ok)
        and (select count(*) from p) = ${sql.lit(SHAPE.postings.length)} * (select count(*) from ok)
        and (select count(*) from held) = (select count(*) from debit) then 1 else 0 end) as ok)
    select o.*, guard.ok from guard left join o on true`.execute(db);
  const key = (orgId: string, quoteId: string) => `${orgId}\n${quoteId}`;
  const placed = new Map(r.rows.filter((row) => row.id !== null).map((row) => [key(row.organization_id, row.quote_id), row]));
  return ps.map((p) => placed.get(key(p.org.id, p.quoteId)) ?? null);
}

/**
 * A batch that aborted for a reason the one-order statement handles by itself: the guard (22012), a
 * deadlock with another batch (40P01) or a serialization failure (40001). Its orders are decided
 * alone. Any other failure is a fault and is not hidden.
 */
export const isBatchRetryable = (e: unknown) => ['22012', '40P01', '40001'].includes((e as { code?: string }).code ?? '');

export interface OrderRowOut {
  id: string; organization_id: string; quote_id: string; hold_id: string; state: string; base_symbol: string; base_decimals: number;
  amount_base_minor: string; quote_symbol: string; quote_decimals: number; amount_quote_minor: string; rate_quote_minor: string;
  proceeds_quote_minor: string | null; reason: string | null; created_at: Date; updated_at: Date;
  venue: string | null; venue_reference: string | null;
}
