import { DomainError } from '../../domain/errors.ts';
import type { Order } from '../../domain/orders/order.ts';
import { orderSettlementEntries, venueFeeEntry } from '../../domain/orders/settlement-entry.ts';
import type { UseCaseDeps } from '../ports.ts';
import { orderAudit } from './audit-view.ts';

export type Outcome =
  | { filled: true; proceeds: bigint; venue?: string; venueReference?: string; costs?: Array<{ assetSymbol: string; amountMinor: bigint }> }
  | { filled: false; reason: string };

/** Where an order sent to an exchange stands while its outcome there is not known (docs/market.md "Unknown outcomes"). */
const OUTCOME_PENDING = new Set(['sending', 'unknown']);

/**
 * approved → completed or failed, once, in one transaction with its ledger entries, the venue's side
 * and the audit entry. Completed: the hold is captured and the settlement posted (the client gets the
 * quoted amount; proceeds minus it is the platform's revenue, or its loss). Failed: the hold goes back.
 * Null when the order was no longer approved: someone else settled it first.
 *
 * `byDesk`: a person records the outcome. An order sent to an exchange whose outcome there is not known yet
 * (its row `sending` or `unknown`) is refused, `orders.venue_outcome_pending`, and nothing changes: the books
 * would otherwise say one thing and the exchange, once it answers, another. The row stays locked until the
 * transaction ends, so the venue's lookup cannot change it meanwhile.
 */
export async function settleOrder(
  d: UseCaseDeps,
  actor: string,
  orderId: string,
  outcome: Outcome,
  opts: { byDesk?: boolean } = {},
): Promise<Order | null> {
  const at = d.clock.now();
  const settled = await d.store.uow.run(async (tx) => {
    if (opts.byDesk) {
      const atVenue = await d.store.venueOrders.lockForDesk(tx, orderId);
      if (atVenue !== null && OUTCOME_PENDING.has(atVenue)) throw new DomainError('orders.venue_outcome_pending', { venueState: atVenue });
    }
    if (outcome.filled) {
      const o = await d.store.orders.settle(tx, orderId, 'completed', at, {
        proceeds: outcome.proceeds,
        ...(outcome.venue !== undefined ? { venue: outcome.venue, venueReference: outcome.venueReference ?? '' } : {}),
      });
      if (!o) return null;
      await d.store.holds.capture(tx, o.holdId, at);
      // The client's entry at the quoted amounts, then the platform's own with the venue's proceeds and the margin.
      for (const e of orderSettlementEntries(o, outcome.proceeds)) await d.store.ledger.post(tx, d.ids.next('je'), e, at);
      const fee = venueFeeEntry(o.id, outcome.costs ?? []);
      if (fee) await d.store.ledger.post(tx, d.ids.next('je'), fee, at);
      // The venue's side of the same fill, in the same transaction: the books and the venue move together.
      await d.venue.fillSettled(tx, orderId, at);
      await d.store.audit.record(tx, d.ids, at, {
        actor,
        action: 'order.complete',
        subjectType: 'order',
        subjectId: orderId,
        before: { state: 'approved' },
        after: orderAudit(o),
      });
      return o;
    }
    const o = await d.store.orders.settle(tx, orderId, 'failed', at, { reason: outcome.reason });
    if (!o) return null;
    await d.store.holds.release(tx, d.ids, at, o.holdId, 'order_release', orderId);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'order.fail',
      subjectType: 'order',
      subjectId: orderId,
      before: { state: 'approved' },
      after: orderAudit(o),
    });
    return o;
  });
  if (settled) d.tally?.transition('order', settled.state);
  return settled;
}

/** The order as it is now, for a caller whose settlement found it already settled. */
export async function currentOrder(d: UseCaseDeps, orderId: string): Promise<Order> {
  const o = await d.store.orders.get(orderId);
  if (!o) throw new DomainError('orders.not_found');
  return o;
}
