import type { Clock, Market } from '../ports.ts';
import { settleApproved, type OrderDecisions } from './approve-order.ts';
import type { Order } from './order.ts';

export interface StuckOrders extends OrderDecisions {
  /** Orders still `approved` whose last change is older than `before`. */
  stuckApproved(before: Date, limit?: number): Promise<Order[]>;
}

/** An approval normally settles within one request; older than this, the process that approved it is presumed gone. */
export const RECOVERY_GRACE_MS = 30_000;

/**
 * Re-drives orders left `approved` by a crash between the decision and the settlement. The venue
 * returns the outcome it already recorded for the order (or executes it now, once), and settlement
 * is guarded on the state, so this is safe beside a live approval.
 */
export async function recoverApproved(
  orders: StuckOrders, market: Market, clock: Clock, graceMs = RECOVERY_GRACE_MS,
  onError: (orderId: string, err: unknown) => void = () => {},
): Promise<Order[]> {
  const stuck = await orders.stuckApproved(new Date(clock.now().getTime() - graceMs));
  const settled: Order[] = [];
  // One order that cannot be settled now must not hold back the others.
  for (const o of stuck) {
    try {
      settled.push(await settleApproved(orders, market, 'system:recovery', o));
    } catch (err) {
      onError(o.id, err);
    }
  }
  return settled;
}
