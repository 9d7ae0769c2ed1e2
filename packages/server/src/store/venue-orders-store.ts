import { sql } from 'kysely';
import type { Db } from './db.ts';
import { kyselyOf } from './unit-of-work.ts';
import type { Tx } from '../usecases/repositories.ts';
import type {
  VenueCost,
  VenueOrderInit,
  VenueOrderListed,
  VenueOrderRow,
  VenueOrderSettlement,
  VenueOrdersRepository,
  VenueOrderState,
} from '../usecases/orders/venue-orders-repository.ts';

const readCosts = (text: string | null): VenueCost[] =>
  text === null
    ? []
    : (JSON.parse(text) as Array<{ assetSymbol: string; amountMinor: string }>).map((c) => ({
        assetSymbol: c.assetSymbol,
        amountMinor: BigInt(c.amountMinor),
      }));

const OPEN: VenueOrderState[] = ['new', 'sending', 'unknown'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function toRow(r: any): VenueOrderRow {
  return {
    orderId: r.order_id,
    venue: r.venue,
    venueSymbol: r.venue_symbol,
    side: r.side,
    amountText: r.amount_text,
    state: r.state,
    attempts: r.attempts,
    sentAt: r.sent_at,
    recvWindowMs: r.recv_window_ms,
    venueOrderId: r.venue_order_id,
    executedQty: r.executed_qty,
    quoteQty: r.quote_qty,
    proceedsQuoteMinor: r.proceeds_quote_minor === null ? null : BigInt(r.proceeds_quote_minor),
    reason: r.reason,
    costs: readCosts(r.costs ?? null),
  };
}

/**
 * The rows of orders sent to a CCXT venue (migrations/018). Work on a row needs its lease: a conditional
 * update that only one instance can win while the lease runs, so two instances never send one order.
 * A lease cut short by a crash runs out and the next holder looks the order up first.
 */
export class VenueOrdersStore implements VenueOrdersRepository {
  constructor(private readonly db: Db) {}

  async get(orderId: string): Promise<VenueOrderRow | null> {
    const r = await this.db.selectFrom('venue_orders').selectAll().where('order_id', '=', orderId).executeTakeFirst();
    return r ? toRow(r) : null;
  }

  /**
   * The row (created `new` if absent) with its lease taken by `owner` until `until`; null when it is
   * settled at the venue (filled, refused, partial) or another holder's lease still runs.
   */
  async claim(init: VenueOrderInit, owner: string, now: Date, until: Date): Promise<VenueOrderRow | null> {
    await this.db
      .insertInto('venue_orders')
      .values({
        order_id: init.orderId,
        venue: init.venue,
        venue_symbol: init.venueSymbol,
        side: init.side,
        amount_text: init.amountText,
        state: 'new',
        attempts: 0,
        sent_at: null,
        recv_window_ms: init.recvWindowMs,
        venue_order_id: null,
        executed_qty: null,
        quote_qty: null,
        proceeds_quote_minor: null,
        reason: null,
        lease_owner: null,
        lease_until: null,
        created_at: now,
        updated_at: now,
        costs: null,
      })
      .onConflict((oc) => oc.column('order_id').doNothing())
      .execute();
    const r = await this.db
      .updateTable('venue_orders')
      .set({ lease_owner: owner, lease_until: until })
      .where('order_id', '=', init.orderId)
      .where('state', 'in', OPEN)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .returningAll()
      .executeTakeFirst();
    return r ? toRow(r) : null;
  }

  /** Written before the order leaves: a crash from here on leaves `sending`, which is looked up, never resent blind. */
  async markSending(orderId: string, owner: string, at: Date): Promise<boolean> {
    const r = await this.db
      .updateTable('venue_orders')
      .set({ state: 'sending', sent_at: at, attempts: sql`attempts + 1`, updated_at: at })
      .where('order_id', '=', orderId)
      .where('lease_owner', '=', owner)
      .returning('order_id')
      .executeTakeFirst();
    return r !== undefined;
  }

  /** Records what the venue said and gives the lease back. */
  async settle(orderId: string, owner: string, at: Date, v: VenueOrderSettlement): Promise<void> {
    await this.db
      .updateTable('venue_orders')
      .set({
        state: v.state,
        updated_at: at,
        lease_owner: null,
        lease_until: null,
        ...(v.venueOrderId !== undefined ? { venue_order_id: v.venueOrderId } : {}),
        ...(v.executedQty !== undefined ? { executed_qty: v.executedQty } : {}),
        ...(v.quoteQty !== undefined ? { quote_qty: v.quoteQty } : {}),
        ...(v.proceedsQuoteMinor !== undefined ? { proceeds_quote_minor: v.proceedsQuoteMinor.toString() } : {}),
        ...(v.reason !== undefined ? { reason: v.reason.slice(0, 500) } : {}),
        ...(v.costs?.length
          ? { costs: JSON.stringify(v.costs.map((c) => ({ assetSymbol: c.assetSymbol, amountMinor: c.amountMinor.toString() }))) }
          : {}),
      })
      .where('order_id', '=', orderId)
      .where('lease_owner', '=', owner)
      .execute();
  }

  async release(orderId: string, owner: string): Promise<void> {
    await this.db
      .updateTable('venue_orders')
      .set({ lease_owner: null, lease_until: null })
      .where('order_id', '=', orderId)
      .where('lease_owner', '=', owner)
      .execute();
  }

  /** The rows newest first (by their last change), with their orders' figures; `state` narrows them. */
  async list(p: { state?: VenueOrderState | undefined; limit: number }): Promise<VenueOrderListed[]> {
    let q = this.db
      .selectFrom('venue_orders as v')
      .innerJoin('orders as o', 'o.id', 'v.order_id')
      .selectAll('v')
      .select([
        'o.organization_id',
        'o.state as order_state',
        'o.base_symbol',
        'o.quote_symbol',
        'o.quote_decimals',
        'o.amount_quote_minor',
      ])
      .orderBy('v.updated_at', 'desc')
      .orderBy('v.order_id', 'desc')
      .limit(p.limit);
    if (p.state) q = q.where('v.state', '=', p.state);
    return (await q.execute()).map((r) => ({
      ...toRow(r),
      organizationId: r.organization_id,
      orderState: r.order_state,
      baseSymbol: r.base_symbol,
      quoteSymbol: r.quote_symbol,
      quoteDecimals: r.quote_decimals,
      owedQuoteMinor: BigInt(r.amount_quote_minor),
      updatedAt: r.updated_at,
    }));
  }

  /** How many rows are in each state that needs watching: sent with no outcome yet, and partial fills waiting for the desk. */
  async watch(): Promise<{ awaitingOutcome: number; partial: number }> {
    const rows = await this.db
      .selectFrom('venue_orders')
      .select(['state', (eb) => eb.fn.countAll<string>().as('n')])
      .where('state', 'in', ['sending', 'unknown', 'partial'])
      .groupBy('state')
      .execute();
    const n = (st: string) => rows.filter((r) => st.split(',').includes(r.state)).reduce((a, r) => a + Number(r.n), 0);
    return { awaitingOutcome: n('sending,unknown'), partial: n('partial') };
  }

  /** Orders sent whose outcome is not known yet (a metric). */
  async awaitingOutcome(): Promise<number> {
    const r = await this.db
      .selectFrom('venue_orders')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('state', 'in', ['sending', 'unknown'])
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async lockForDesk(tx: Tx, orderId: string): Promise<VenueOrderState | null> {
    const r = await kyselyOf(tx).selectFrom('venue_orders').select('state').where('order_id', '=', orderId).forUpdate().executeTakeFirst();
    return r ? (r.state as VenueOrderState) : null;
  }
}
