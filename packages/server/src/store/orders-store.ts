import type { Selectable } from 'kysely';
import { DomainError } from '../domain/errors.ts';
import type { Order, OrderState } from '../domain/orders/order.ts';
import type { Clock, Ids } from '../domain/ports.ts';
import type { Db } from './db.ts';
import type { OrdersRepository } from '../usecases/repositories.ts';
import { createdWithin, mapPage, readPage, type CreatedWindow, type Page, type PageParams } from './paging.ts';
import type { Database } from './schema.ts';
import type { Tx } from './unit-of-work.ts';

type OrderRow = Selectable<Database['orders']>;

const toOrder = (r: Omit<OrderRow, 'seq'>): Order => ({
  id: r.id,
  organizationId: r.organization_id,
  quoteId: r.quote_id,
  holdId: r.hold_id,
  state: r.state as OrderState,
  baseSymbol: r.base_symbol,
  baseDecimals: r.base_decimals,
  amountBase: BigInt(r.amount_base_minor),
  quoteSymbol: r.quote_symbol,
  quoteDecimals: r.quote_decimals,
  amountQuote: BigInt(r.amount_quote_minor),
  rateQuoteMinor: BigInt(r.rate_quote_minor),
  proceedsQuote: r.proceeds_quote_minor === null ? null : BigInt(r.proceeds_quote_minor),
  reason: r.reason,
  venue: r.venue,
  venueReference: r.venue_reference,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const COLUMNS = [
  'id',
  'organization_id',
  'quote_id',
  'hold_id',
  'state',
  'base_symbol',
  'base_decimals',
  'amount_base_minor',
  'quote_symbol',
  'quote_decimals',
  'amount_quote_minor',
  'rate_quote_minor',
  'proceeds_quote_minor',
  'reason',
  'created_at',
  'updated_at',
  'venue',
  'venue_reference',
] as const;

/** Exchange requests: every decision is a guarded UPDATE on the state, so it happens once. */
export class OrdersStore implements OrdersRepository {
  constructor(
    private readonly db: Db,
    private readonly ids: Ids,
    private readonly clock: Clock,
  ) {}

  /** Writes a new order (usecases/orders/place-order.ts takes its hold in the same transaction). */
  async insert(tx: Tx, o: Order): Promise<void> {
    await tx
      .insertInto('orders')
      .values({
        id: o.id,
        organization_id: o.organizationId,
        quote_id: o.quoteId,
        hold_id: o.holdId,
        state: o.state,
        base_symbol: o.baseSymbol,
        base_decimals: o.baseDecimals,
        amount_base_minor: o.amountBase.toString(),
        quote_symbol: o.quoteSymbol,
        quote_decimals: o.quoteDecimals,
        amount_quote_minor: o.amountQuote.toString(),
        rate_quote_minor: o.rateQuoteMinor.toString(),
        proceeds_quote_minor: null,
        reason: null,
        venue: o.venue,
        created_at: o.createdAt,
        updated_at: o.updatedAt,
      })
      .execute();
  }

  async listForOrganization(
    organizationId: string,
    p: PageParams,
    f: { state?: OrderState | undefined } & CreatedWindow = {},
  ): Promise<Page<Order>> {
    return this.#page(p, { ...f, organizationId });
  }

  /**
   * Across organizations, for the operator; optionally one state, one organization. Pending ones that
   * still wait for their organization's members are not the operator's yet (docs/controls.md).
   */
  async list(p: PageParams, filter: { state?: OrderState; organizationId?: string }): Promise<Page<Order>> {
    return this.#page(p, { ...filter, operator: true });
  }

  async #page(
    p: PageParams,
    f: { organizationId?: string; state?: OrderState | undefined; operator?: boolean } & CreatedWindow,
  ): Promise<Page<Order>> {
    let q = createdWithin(this.db.selectFrom('orders'), 'created_at', f);
    if (f.organizationId) q = q.where('organization_id', '=', f.organizationId);
    if (f.state) q = q.where('state', '=', f.state);
    if (f.operator && f.state === 'pending_approval')
      q = q.where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('organization_approvals as a')
              .select('a.request_id')
              .whereRef('a.request_id', '=', 'orders.id')
              .where('a.kind', '=', 'orders')
              .where('a.waiting_for', '=', 'organization'),
          ),
        ),
      );
    const counter =
      f.organizationId && !f.state && !f.createdFrom && !f.createdTo ? { list: 'orders' as const, owner: f.organizationId } : undefined;
    return mapPage(await readPage(q, 'seq', p, (x) => x.select(COLUMNS), counter), toOrder);
  }

  /** Whether the order is this organization's (a cancel of another's is not found, never revealed). */
  async belongsTo(tx: Tx, orderId: string, organizationId: string): Promise<boolean> {
    return (
      (await tx
        .selectFrom('orders')
        .select('id')
        .where('id', '=', orderId)
        .where('organization_id', '=', organizationId)
        .executeTakeFirst()) !== undefined
    );
  }

  async get(id: string): Promise<Order | null> {
    const r = await this.db.selectFrom('orders').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return r ? toOrder(r) : null;
  }

  /** Approved orders whose settlement has not happened since `before`: a crash between approval and settlement. */
  async stuckApproved(before: Date, limit = 50): Promise<Order[]> {
    const rows = await this.db
      .selectFrom('orders')
      .select(COLUMNS)
      .where('state', '=', 'approved')
      .where('updated_at', '<', before)
      .orderBy('seq')
      .limit(limit)
      .execute();
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
  async decide(
    tx: Tx,
    orderId: string,
    to: 'approved' | 'rejected' | 'cancelled',
    at: Date,
    reason: string | null,
  ): Promise<{ before: Order; after: Order }> {
    const row = await tx
      .updateTable('orders')
      .set({ state: to, updated_at: at, ...(reason !== null ? { reason } : {}) })
      .where('id', '=', orderId)
      .where('state', '=', 'pending_approval')
      .returning(COLUMNS)
      .executeTakeFirst();
    if (!row) {
      const cur = await tx.selectFrom('orders').select('state').where('id', '=', orderId).executeTakeFirst();
      if (!cur) throw new DomainError('orders.not_found');
      throw new DomainError('orders.already_decided', { state: cur.state });
    }
    const after = toOrder(row);
    return { before: { ...after, state: 'pending_approval', reason: null }, after };
  }

  /** approved → `to`, once, in the caller's transaction; null when the order is not approved (someone else settled it). */
  async settle(
    tx: Tx,
    orderId: string,
    to: 'completed' | 'failed',
    at: Date,
    set: {
      proceeds?: bigint;
      reason?: string;
      venue?: string;
      venueReference?: string;
    },
  ): Promise<Order | null> {
    const row = await tx
      .updateTable('orders')
      .set({
        state: to,
        updated_at: at,
        ...(set.proceeds !== undefined ? { proceeds_quote_minor: set.proceeds.toString() } : {}),
        ...(set.reason !== undefined ? { reason: set.reason } : {}),
        ...(set.venue !== undefined ? { venue: set.venue } : {}),
        ...(set.venueReference !== undefined ? { venue_reference: set.venueReference } : {}),
      })
      .where('id', '=', orderId)
      .where('state', '=', 'approved')
      .returning(COLUMNS)
      .executeTakeFirst();
    return row ? toOrder(row) : null;
  }
}
