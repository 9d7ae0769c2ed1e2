import { sql } from 'kysely';
import { DomainError } from '../domain/errors.ts';
import { holdEntry } from '../domain/ledger/entries.ts';
import { netChanges } from '../domain/ledger/entry.ts';
import { orderCaps } from '../domain/orders/order.ts';
import type { Organization } from '../domain/organizations/organization.ts';
import type { Ids } from '../domain/ports.ts';
import {
  AnswersOfWork,
  claimableRecordIds,
  howKeysAreClaimed,
  claimableKeysCtes,
  claimableKeyOutcomes,
  keepAnswersSql,
  keepAnswersOfWritten,
  writableUnderKeys,
  type AnswerInWork,
} from './answers-in-work.ts';
import type { Db } from './db.ts';
import { reconciledSql } from './platform-state-store.ts';
import { quoteDecimalsCurrent } from './quotes-store.ts';

/**
 * A quote to accept. `keep`: the request carries an Idempotency-Key whose answer is kept by reference to
 * the order (domain/idempotency/answer-ref.ts), in the placing statement itself.
 */
export interface Placement {
  org: Pick<Organization, 'id' | 'limits'>;
  quoteId: string;
  keep?: AnswerInWork<string> | undefined;
}

/**
 * What the statement decided for one placement: the order it wrote, or why it wrote nothing; `unclaimed`:
 * nothing, because its Idempotency-Key, to be claimed by the statement (PostgreSQL), was not (its request
 * was told why: AnswerInWork.unclaimed).
 */
export type Placed = { row: OrderRowOut } | { refusal: DomainError } | { unclaimed: true };

// The hold entry of an order, as the domain writes it: what the statement posts for every order.
const SHAPE = holdEntry('order_hold', { organizationId: 'o', assetSymbol: 'A', amount: 1n, referenceId: 'r' });
const NET = netChanges(SHAPE)
  .map((c) => `${c.ownerId}:${c.kind}:${c.amount}`)
  .join(' ');
// The statement below moves `available` down and `held` up by the same amount; a different entry needs a different statement.
if (NET !== 'o:available:-1 o:held:1' || SHAPE.postings.some((p) => p.ownerId !== 'o' || p.assetSymbol !== 'A')) {
  throw new Error(`orders-batch.ts writes the hold entry as available -a, held +a; holdEntry now nets to: ${NET}`);
}
const POSTINGS = sql.join(SHAPE.postings.map((p) => sql`(${p.kind}::text, ${p.amount.toString()}::numeric)`));

interface Decided extends Partial<OrderRowOut> {
  blocked: boolean;
  stopped: boolean;
  found: boolean;
  used: boolean | null;
  expired: boolean | null;
  over_cap: boolean | null;
  quote_base: string | null;
}

/**
 * The one statement that places orders: a single order is a batch of one. Requests that accept
 * quotes at the same moment share it (one round trip and one commit for all of them; on one
 * organization, one lock of its balance row for all of them instead of one after the other).
 *
 * Every placement is decided by the rules of CONTRACT §5, in this order (the wire's order of
 * checks): the platform is reconciled; the quote is this organization's (another's is not found);
 * unused; unexpired and in the market's current decimals; within the organization's cap for the base
 * asset; and the available balance backs the sum of the statement's orders in that asset. A placed
 * order has consumed its quote, holds its base amount (the entry of `holdEntry`), and has its hold
 * and order rows; a refusal writes nothing and a quote refused for the balance or a limit stays
 * usable. Each quote appears once per statement (the caller decides a quote accepted twice at once
 * alone, after).
 *
 * A balance refusal is certain only for an order alone: in a batch, the sum of the organization's
 * orders in that asset may be what did not fit (the caller then decides each of them alone).
 *
 * The quotes are read locked, in their latest committed version: a quote consumed by a statement
 * that committed while this one waited is answered as used, not found free.
 * Locks are taken in one order in every statement: the quotes sorted by id, then the `available` rows
 * sorted by owner and asset (all of them before any `held` row, because `held` is written from an
 * aggregate), as `netChanges` does.
 */
export async function placeBatch(db: Db, ids: Ids, at: Date, ps: Placement[]): Promise<Placed[]> {
  const answers = new AnswersOfWork();
  const r = await placingStatement(ids, at, ps, answers).execute(db);
  // The statement committed on its own: the keyed requests whose answer it kept send it and keep nothing more.
  const kept = r.rows[0]?.kept;
  answers.answered(kept ? (JSON.parse(kept) as Parameters<AnswersOfWork['answered']>[0]) : []);
  answers.tell();
  return r.rows.map(decided);
}

/**
 * The placing statement itself (placeBatch runs it; a test reads its plan). With keyed placements it also
 * keeps their answers, by reference to their orders (`kept`), for the orders it wrote: a keyed order is
 * still one statement and one commit, and its answer exists exactly when it does. On PostgreSQL it claims
 * their keys too (claimableKeysCtes): a placement whose key it cannot claim is not decided at all (`blocked`),
 * and the guard aborts the statement should a placed order's answer not be kept (a row inserted for its
 * key since the statement began: the caller decides that order again, alone, and then finds the row).
 */
export function placingStatement(ids: Ids, at: Date, ps: Placement[], answers = new AnswersOfWork()) {
  const ts = sql`${at.toISOString()}::timestamptz`;
  const rows = ps.map((p) => {
    const orderId = ids.next('ord');
    answers.add(p.keep, orderId);
    return {
      orderId,
      holdId: ids.next('hld'),
      entryId: ids.next('je'),
      quoteId: p.quoteId,
      orgId: p.org.id,
      caps: JSON.stringify(Object.fromEntries(orderCaps(p.org.limits).map((c) => [c.asset, c.cap.toString()]))),
    };
  });
  const all = answers.answers;
  const keyed = all.length > 0;
  // Claimed here (route config `claimInWork`), or before the work, whose claim rows `kept` then answers.
  const gate = keyed && howKeysAreClaimed(all, 'orders') === 'statement';
  const open = gate ? writableUnderKeys('i.order_id', all, claimableRecordIds) : sql`true`;
  const col = (k: keyof (typeof rows)[number]) => rows.map((r) => r[k]);
  return sql<Decided & { n: number; ok: number; kept?: string | null }>`
    with input as materialized (
      select * from unnest(${col('orderId')}::text[], ${col('holdId')}::text[], ${col('entryId')}::text[],
        ${col('quoteId')}::text[], ${col('orgId')}::text[], ${col('caps')}::jsonb[]) with ordinality as i(order_id, hold_id, entry_id, quote_id, org_id, caps, n)),
    ${gate ? sql`${claimableKeysCtes(all)},` : sql``}
    stop as materialized (select not ${reconciledSql} as stopped),
    seen as materialized (
      select i.n, q.id, q.organization_id, q.base_symbol, q.base_decimals, q.amount_base_minor, q.quote_symbol, q.quote_decimals,
        q.amount_quote_minor, q.rate_quote_minor, i.order_id, i.hold_id, i.entry_id,
        q.consumed_at is not null as used,
        (q.expires_at <= ${ts} or not ${quoteDecimalsCurrent('q')}) as expired,
        coalesce(q.amount_base_minor > (i.caps ->> q.base_symbol)::numeric, false) as over_cap
      -- One primary-key lookup per placement, in quote id order (the order locks are taken in), whatever the
      -- table's statistics say: a lateral subquery with a limit is never turned into a join that scans quotes.
      from (select * from input order by quote_id) i
      cross join lateral (select * from quotes where id = i.quote_id and organization_id = i.org_id limit 1 for update) q
      where not (select stopped from stop) and ${open}),
    q as materialized (select * from seen where not used and not expired and not over_cap),
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
      insert into postings (entry_id, owner_id, asset_symbol, account_kind, amount, created_at, entry_kind, reference_id, memo)
      select je.id, ok.organization_id, ok.base_symbol, v.kind, v.unit * ok.amount_base_minor, ${ts}, ${SHAPE.kind}::text, ok.order_id, null
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
    ${keyed ? sql`kept as (${gate ? keepAnswersOfWritten(sql`select order_id from ok`) : keepAnswersSql(all, sql`select order_id from ok`)}),` : sql``}
    -- Every part wrote one row per placed order (and one posting per posting of the entry), or the statement aborts
    -- (1/0) and nothing is written.
    guard as materialized (
      select 1 / (case when (select count(*) from o) = (select count(*) from ok)
        and (select count(*) from consume) = (select count(*) from ok)
        and (select count(*) from h) = (select count(*) from ok)
        and (select count(*) from je) = (select count(*) from ok)
        and (select count(*) from p) = ${sql.lit(SHAPE.postings.length)} * (select count(*) from ok)
        and (select count(*) from held) = (select count(*) from debit)
        -- and every keyed order placed has its key's answer kept (a row inserted for a key since the statement began is not taken over).
        ${
          gate
            ? sql`and (select count(*) from kept) = (select count(*) from ok where order_id in (${claimableRecordIds}))`
            : keyed
              ? // and every keyed order placed has its answer kept on its own claim (one that lapsed and was taken over keeps none).
                sql`and (select count(*) from kept) = (select count(*) from ok where order_id = any(${all.map((a) => a.work ?? '')}::text[]))`
              : sql``
        } then 1 else 0 end) as ok)
    select i.n::int as n, not ${open} as blocked, (select stopped from stop) as stopped, s.n is not null as found, s.used, s.expired, s.over_cap,
      s.base_symbol as quote_base, o.*, guard.ok
      ${
        gate
          ? sql`, (select json_agg(g)::text from (${claimableKeyOutcomes}) g) as kept`
          : keyed
            ? sql`, (select json_agg(json_build_object('scope', scope, 'key', key))::text from kept) as kept`
            : sql``
      }
    from guard cross join input i left join seen s on s.n = i.n left join o on o.id = i.order_id
    order by i.n`;
}

/** The reason of a refusal, in the order of checks the wire promises. */
function decided(d: Decided): Placed {
  if (d.id) return { row: d as OrderRowOut };
  if (d.blocked) return { unclaimed: true };
  if (d.stopped) return { refusal: new DomainError('ledger.ledger_not_reconciled') };
  // Another organization's quote is indistinguishable from none (CONTRACT §6). A used quote says so even once expired.
  if (!d.found) return { refusal: new DomainError('orders.quote_not_found') };
  if (d.used) return { refusal: new DomainError('orders.quote_already_used') };
  // A quote priced in decimals the market no longer uses is void, as if expired: ask for a new one.
  if (d.expired) return { refusal: new DomainError('orders.quote_expired') };
  if (d.over_cap) return { refusal: new DomainError('orders.limit_exceeded', { asset: d.quote_base ?? '' }) };
  return { refusal: new DomainError('ledger.insufficient_balance') };
}

/**
 * A batch that aborted for a reason its orders, decided alone, do not share: the guard (22012), a
 * deadlock with another batch (40P01) or a serialization failure (40001). Any other failure is a
 * fault and is not hidden.
 */
export const isBatchRetryable = (e: unknown) => ['22012', '40P01', '40001'].includes((e as { code?: string }).code ?? '');

export interface OrderRowOut {
  id: string;
  organization_id: string;
  quote_id: string;
  hold_id: string;
  state: string;
  base_symbol: string;
  base_decimals: number;
  amount_base_minor: string;
  quote_symbol: string;
  quote_decimals: number;
  amount_quote_minor: string;
  rate_quote_minor: string;
  proceeds_quote_minor: string | null;
  reason: string | null;
  created_at: Date;
  updated_at: Date;
  venue: string | null;
  venue_reference: string | null;
}
