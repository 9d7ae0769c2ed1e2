import { DomainError } from '../../domain/errors.ts';
import type { Order } from '../../domain/orders/order.ts';
import type { UseCaseDeps } from '../ports.ts';
import { settleOrder } from './settle-order.ts';

/**
 * Only the desk records executions; the simulated venue settles its own (a hand-made fill would leave its
 * books behind). At a CCXT venue the desk completes what the venue left open (a partial fill).
 */
function assertDesk(d: UseCaseDeps): void {
  if (d.venue.kind === 'simulated') throw new DomainError('market.venue_simulated');
}

async function lost(d: UseCaseDeps, orderId: string): Promise<never> {
  const o = await d.store.orders.get(orderId);
  if (!o) throw new DomainError('orders.not_found');
  throw new DomainError('orders.not_awaiting_execution', { state: o.state });
}

/**
 * docs/design/money-and-states.md: staff executed an approved order at their venue. Completed, once: the client receives
 * the quoted amount; the proceeds arrive in the platform's `market` account and the difference is the
 * platform's `revenue` (negative when the desk executed below the quote), one balanced entry.
 * A second fill, or a fill of an order not approved, is 409 and changes nothing; so is one of an order sent to an
 * exchange whose outcome there is not known yet (`orders.venue_outcome_pending`, docs/market.md "Unknown outcomes").
 */
export async function recordFill(
  d: UseCaseDeps,
  actor: string,
  orderId: string,
  f: { venue: string; venueReference: string; proceeds: bigint },
): Promise<Order> {
  assertDesk(d);
  const o = await settleOrder(
    d,
    actor,
    orderId,
    { filled: true, proceeds: f.proceeds, venue: f.venue, venueReference: f.venueReference },
    { byDesk: true },
  );
  if (!o) return lost(d, orderId);
  d.tally?.recorded('fill');
  return o;
}

/** docs/design/money-and-states.md: the desk could not execute an approved order: failed, hold released, once. */
export async function recordOrderFailure(d: UseCaseDeps, actor: string, orderId: string, reason: string): Promise<Order> {
  assertDesk(d);
  const o = await settleOrder(d, actor, orderId, { filled: false, reason }, { byDesk: true });
  if (!o) return lost(d, orderId);
  d.tally?.recorded('order_failure');
  return o;
}
