import type { Order } from '../../domain/orders/order.ts';
import type { UseCaseDeps } from '../ports.ts';
import { currentOrder, settleOrder } from './settle-order.ts';

/**
 * Executes an approved order at the venue and settles it: completed with the proceeds, or failed with
 * the hold released. The desk's venue executes nothing here: the order stays `approved` until staff
 * record the fill or the failure (record-fill.ts). A CCXT venue whose outcome is not known yet (no
 * answer, a partial fill) leaves it `approved` too: recoverApproved asks again.
 */
export async function executeApproved(d: UseCaseDeps, actor: string, o: Order): Promise<Order> {
  const ex = await d.venue.execute({
    orderId: o.id,
    baseSymbol: o.baseSymbol,
    quoteSymbol: o.quoteSymbol,
    amountBaseMinor: o.amountBase,
    minProceedsQuoteMinor: o.amountQuote,
    baseDecimals: o.baseDecimals,
    quoteDecimals: o.quoteDecimals,
    venue: o.venue,
  });
  if (ex === null) return o;
  const settled = await settleOrder(
    d,
    actor,
    o.id,
    ex.filled
      ? {
          filled: true,
          proceeds: ex.proceedsQuoteMinor,
          ...(ex.venue !== undefined ? { venue: ex.venue, venueReference: ex.venueReference ?? '' } : {}),
          ...(ex.costs?.length ? { costs: ex.costs } : {}),
        }
      : { filled: false, reason: ex.reason },
  );
  return settled ?? currentOrder(d, o.id);
}

/** An approval normally settles within one request; older than this, the process that approved it is presumed gone. */
export const RECOVERY_GRACE_MS = 30_000;

/**
 * Re-drives orders left `approved` by a crash between the decision and the settlement. The venue
 * returns the outcome it already recorded for the order (or executes it now, once), and settlement
 * is guarded on the state, so this is safe beside a live approval. With the desk's venue there is
 * nothing to re-drive: `approved` is where an order waits for staff.
 */
export async function recoverApproved(
  d: UseCaseDeps,
  graceMs = RECOVERY_GRACE_MS,
  onError: (orderId: string, err: unknown) => void = () => {},
): Promise<Order[]> {
  if (d.venue.kind === 'desk') return [];
  const stuck = await d.store.orders.stuckApproved(new Date(d.clock.now().getTime() - graceMs));
  const settled: Order[] = [];
  // One order that cannot be settled now must not hold back the others.
  for (const o of stuck) {
    try {
      settled.push(await executeApproved(d, 'system:recovery', o));
    } catch (err) {
      onError(o.id, err);
    }
  }
  return settled;
}
