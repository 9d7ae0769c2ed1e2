import { sql, type Selectable } from 'kysely';
import { DomainError } from '../domain/errors.ts';
import { holdEntry } from '../domain/ledger/entries.ts';
import { assertWithinOrderLimit, orderCaps, type Order, type OrderState } from '../domain/orders/order.ts';
import type { Organization } from '../domain/organizations/organization.ts';
import type { Clock, Ids } from '../domain/ports.ts';
import { Batcher } from './batcher.ts';
import type { Db } from './db.ts';
import { isBatchRetryable, placeBatch, type Placement } from './orders-batch.ts';
import { entryCtes } from './ledger-store.ts';
import { createdWithin, mapPage, readPage, type CreatedWindow, type Page, type PageParams } from './paging.ts';
import { reconciledSql } from './platform-state-store.ts';
import { quoteDecimalsCurrent } from './quotes-store.ts';
import type { Database } from './schema.ts';
import type { Tx } from './unit-of-work.ts';

type OrderRow = Selectable<Database['orders']>;

const toOrder = (r: Omit<OrderRow, 'seq'>): Order => ({
  id: r.id, organizationId: r.organization_id, quoteId: r.quote_id, holdId: r.hold_id, state: r.state as OrderState,
  baseSymbol: r.base_symbol, baseDecimals: r.base_decimals, amountBase: BigInt(r.amount_base_minor),
  quoteSymbol: r.quote_symbol, quoteDecimals: r.quote_decimals, amountQuote: BigInt(r.amount_quote_minor),
  rateQuoteMinor: BigInt(r.rate_quote_minor), proceedsQuote: r.proceeds_quote_minor === null ? null : BigInt(r.proceeds_quote_minor),
  reason: r.reason, venue: r.venue, venueReference: r.venue_reference, createdAt: r.created_at, updatedAt: r.updated_at,
});

const COLUMNS = [
  'id', 'organization_id', 'quote_id', 'hold_id', 'state', 'base_symbol', 'base_decimals', 'amount_base_minor',
  'quote_symbol', 'quote_decimals', 'amount_quote_minor', 'rate_quote_minor', 'proceeds_quote_minor', 'reason', 'created_at', 'updated_at',
  'venue', 'venue_reference',
] as const;

/**
 * Exchange requests. Accepting a quote, checking limits, holding the base amount and writing the
 * order are one statement; every decision is a guarded UPDATE on the state, so it happens once.
 */
export class OrdersStore {
  constructor(private readonly db: Db, private readonly ids: Ids, private readonly clock: Clock) {}

  // Quotes accepted at the same moment are placed by one statement (orders-batch.ts).
  readonly #batch = new Batcher<Placement, Order | null>(async (ps) => {
    if (ps.length === 1) return [null];
    // A quote accepted twice at once is decided alone, after the batch: one of the two finds it used.
    const first = new Map<string, number>();
    ps.forEach((p, i) => { if (!first.has(p.quoteId)) first.set(p.quoteId, i); });
    const unique = [...first.values()].map((i) => ps[i]!);
    const placed = await placeBatch(this.db, this.ids, this.clock.now(), unique).catch((e: unknown) => {
      if (isBatchRetryable(e)) return unique.map(() => null);
      throw e;
    });
    const byIndex = new Map([...first.values()].map((i, k) => [i, placed[k]]));
    return ps.map((_, i) => {
      const row = byIndex.get(i);
      return row ? toOrder(row) : null;
    });
  }, { maxBatch: 64, maxInFlight: 4 });

  /**
   * Accepts a quote: with the others accepted at the same moment when they can all be placed for
   * certain, else alone, by the statement below, which also says why a refusal is one.
   */
  async place(org: Pick<Organization, 'id' | 'limits'>, quoteId: string): Promise<Order> {
    return (await this.#batch.load({ org, quoteId })) ?? this.#placeOne(org, quoteId);
  }

  /**
   * Accepts a quote in one statement (one round trip, atomic without an explicit transaction):
   * consumes it only if the platform is reconciled and the quote is this organization's, unused,
   * unexpired and within the organization's cap for the base asset; holds the base amount (the entry of `holdEntry`, its amount read from the
   * quote) and writes the hold and the order. Each part runs only if the one before produced its row,
   * so a refusal writes nothing and a quote refused for the balance or a limit stays usable. When
   * nothing was written, a read finds out why.
   */
  async #placeOne(org: Pick<Organization, 'id' | 'limits'>, quoteId: string): Promise<Order> {
    const at = this.clock.now();
    const id = this.ids.next('ord');
    const holdId = this.ids.next('hld');
    const ts = sql`${at.toISOString()}::timestamptz`;
    const caps = orderCaps(org.limits);
    // The entry's shape comes from the domain; its asset and amount from the quote row (1n is the unit).
    const hold = holdEntry('order_hold', { organizationId: org.id, assetSymbol: '', amount: 1n, referenceId: id });
    const r = await sql<Omit<OrderRow, 'seq'>>`
      with q as (
        update quotes set consumed_at = ${ts}
        where id = ${quoteId}::text and organization_id = ${org.id}::text and consumed_at is null and expires_at > ${ts}
          and ${reconciledSql} and ${quoteDecimalsCurrent('quotes')}
          and not exists (select 1 from unnest(${caps.map((c) => c.asset)}::text[], ${caps.map((c) => c.cap.toString())}::numeric[]) as c(asset, cap)
                          where c.asset = quotes.base_symbol and quotes.amount_base_minor > c.cap)
        returning *),
      ${sql.join(entryCtes(this.ids.next('je'), hold, at, { cte: 'q', asset: 'base_symbol', amount: 'amount_base_minor' }))},
      h as (insert into holds (id, organization_id, asset_symbol, amount, state, created_at, updated_at)
        select ${holdId}::text, q.organization_id, q.base_symbol, q.amount_base_minor, 'active', ${ts}, ${ts} from q, je
        returning id),
      o as (insert into orders (id, organization_id, quote_id, hold_id, state, base_symbol, base_decimals, amount_base_minor,
          quote_symbol, quote_decimals, amount_quote_minor, rate_quote_minor, proceeds_quote_minor, reason, created_at, updated_at)
        select ${id}::text, q.organization_id, q.id, h.id, 'pending_approval', q.base_symbol, q.base_decimals, q.amount_base_minor,
          q.quote_symbol, q.quote_decimals, q.amount_quote_minor, q.rate_quote_minor, null, null, ${ts}, ${ts} from q, h
        returning ${sql.join(COLUMNS.map((c) => sql.ref(c)))}),
      -- Every data-modifying CTE runs to completion whatever the query reads, so a quote consumed whose
      -- hold was refused must abort the statement: 1/0 exactly when q wrote its row and o did not.
      -- (Not a constant, so the planner cannot fold it; materialized and selected, so it is always evaluated.)
      guard as materialized (select 1 / ((select count(*) from o) + 1 - (select count(*) from q))::int as ok)
      select o.*, guard.ok from guard left join o on true`.execute(this.db).catch((e: unknown) => {
      if ((e as { code?: string }).code === '22012') return null;
      throw e;
    });
    const row = r?.rows[0];
    if (!row?.id) throw await this.#whyRefused(org, quoteId, at);
    return toOrder(row);
  }

  /** Nothing was written: the platform stopped, the quote is unknown, used, expired or over the cap, or else the balance cannot back it. */
  async #whyRefused(org: Pick<Organization, 'id' | 'limits'>, quoteId: string, at: Date): Promise<DomainError> {
    // The same precedence as authentication's early check: the stop before anything about the quote.
    const state = await this.db.selectFrom('platform_state').select('reconciled').where('id', '=', 1).executeTakeFirst();
    if (state && !state.reconciled) return new DomainError('ledger.ledger_not_reconciled');
    const q = await this.db.selectFrom('quotes').select(['organization_id', 'consumed_at', 'expires_at', 'base_symbol', 'amount_base_minor'])
      .select(quoteDecimalsCurrent('quotes').as('decimals_current')).where('id', '=', quoteId).executeTakeFirst();
    // Another organization's quote is indistinguishable from none (CONTRACT §6). A used quote says so even once expired.
    if (!q || q.organization_id !== org.id) return new DomainError('orders.quote_not_found');
    if (q.consumed_at !== null) return new DomainError('orders.quote_already_used');
    // A quote priced in decimals the market no longer uses is void, as if expired: ask for a new one.
    if (q.expires_at <= at || !q.decimals_current) return new DomainError('orders.quote_expired');
    try {
      assertWithinOrderLimit(org.limits, q.base_symbol, BigInt(q.amount_base_minor));
    } catch (e) {
      return e as DomainError;
    }
    return new DomainError('ledger.insufficient_balance');
  }

  async listForOrganization(organizationId: string, p: PageParams, f: { state?: OrderState | undefined } & CreatedWindow = {}): Promise<Page<Order>> {
    return this.#page(p, { ...f, organizationId });
  }

  /** Across organizations, for the operator; optionally one state, one organization. */
  async list(p: PageParams, filter: { state?: OrderState; organizationId?: string }): Promise<Page<Order>> {
    return this.#page(p, filter);
  }

  async #page(p: PageParams, f: { organizationId?: string; state?: OrderState | undefined } & CreatedWindow): Promise<Page<Order>> {
    let q = createdWithin(this.db.selectFrom('orders'), 'created_at', f);
    if (f.organizationId) q = q.where('organization_id', '=', f.organizationId);
    if (f.state) q = q.where('state', '=', f.state);
    return mapPage(await readPage(q, 'seq', p, (x) => x.select(COLUMNS)), toOrder);
  }

  /** Whether the order is this organization's (a cancel of another's is not found, never revealed). */
  async belongsTo(tx: Tx, orderId: string, organizationId: string): Promise<boolean> {
    return (await tx.selectFrom('orders').select('id').where('id', '=', orderId).where('organization_id', '=', organizationId).executeTakeFirst()) !== undefined;
  }

  async get(id: string): Promise<Order | null> {
    const r = await this.db.selectFrom('orders').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return r ? toOrder(r) : null;
  }

  /** Approved orders whose settlement has not happened since `before`: a crash between approval and settlement. */
  async stuckApproved(before: Date, limit = 50): Promise<Order[]> {
    const rows = await this.db.selectFrom('orders').select(COLUMNS)
      .where('state', '=', 'approved').where('updated_at', '<', before).orderBy('seq').limit(limit).execute();
    return rows.map(toOrder);
  }

  /**
   * The order awaiting a decision, its row locked until the caller's transaction ends: approvals of one
   * order are serialized (four-eyes: two persons on the last approval decide it once).
   */
  async lockPending(tx: Tx, orderId: string): Promise<Order> {
    const cur = await tx.selectFrom('orders').select(COLUMNS).where('id', '=', orderId).forUpdate().executeTakeFirst();
    if (!cur) throw new DomainError('orders.not_found');
    if (cur.state !== 'pending_approval') throw new DomainError('orders.already_decided', { state: cur.state });
    return toOrder(cur);
  }

  /** Moves pending_approval → `to` once, in the caller's transaction; whoever loses the race learns the state it found. */
  async decide(tx: Tx, orderId: string, to: 'approved' | 'rejected' | 'cancelled', at: Date, reason: string | null): Promise<{ before: Order; after: Order }> {
    const row = await tx.updateTable('orders').set({ state: to, updated_at: at, ...(reason !== null ? { reason } : {}) })
      .where('id', '=', orderId).where('state', '=', 'pending_approval')
      .returning(COLUMNS).executeTakeFirst();
    if (!row) {
      const cur = await tx.selectFrom('orders').select('state').where('id', '=', orderId).executeTakeFirst();
      if (!cur) throw new DomainError('orders.not_found');
      throw new DomainError('orders.already_decided', { state: cur.state });
    }
    const after = toOrder(row);
    return { before: { ...after, state: 'pending_approval', reason: null }, after };
  }

  /** approved → `to`, once, in the caller's transaction; null when the order is not approved (someone else settled it). */
  async settle(tx: Tx, orderId: string, to: 'completed' | 'failed', at: Date, set: {
    proceeds?: bigint; reason?: string; venue?: string; venueReference?: string;
  }): Promise<Order | null> {
    const row = await tx.updateTable('orders').set({
      state: to, updated_at: at,
      ...(set.proceeds !== undefined ? { proceeds_quote_minor: set.proceeds.toString() } : {}),
      ...(set.reason !== undefined ? { reason: set.reason } : {}),
      ...(set.venue !== undefined ? { venue: set.venue } : {}),
      ...(set.venueReference !== undefined ? { venue_reference: set.venueReference } : {}),
    }).where('id', '=', orderId).where('state', '=', 'approved').returning(COLUMNS).executeTakeFirst();
    return row ? toOrder(row) : null;
  }
}
