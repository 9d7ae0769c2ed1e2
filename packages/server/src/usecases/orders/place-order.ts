import { DomainError } from '../../domain/errors.ts';
import type { Order } from '../../domain/orders/order.ts';
import type { Organization } from '../../domain/organizations/organization.ts';
import type { QuoteIds } from '../../domain/quotes/quote-id.ts';
import type { AnswerInWork, UseCaseDeps } from '../ports.ts';

/**
 * Accepts a quote once (CONTRACT §5): an exchange request pending approval whose base amount is held.
 * The orders repository decides and writes it in one statement, with the quote consumed, the hold's
 * journal entry and the order row, shared by the quotes accepted at the same moment (one commit for all);
 * a refusal writes nothing. Its event (order.created) is written by the table's trigger.
 *
 * `keep`: the request's Idempotency-Key answer, a reference to the order, kept by that same statement; on
 * PostgreSQL the statement claims the key too: null when it could not, and nothing was placed (the
 * request was told why: AnswerInWork.unclaimed).
 */
export async function placeOrder(
  d: UseCaseDeps & { quoteIds: QuoteIds },
  org: Pick<Organization, 'id' | 'limits'>,
  quoteId: string,
  keep?: AnswerInWork<string>,
): Promise<Order | null> {
  let order: Order | null;
  try {
    order = await d.store.orders.place(org, quoteId, keep);
  } catch (e) {
    // An unaccepted quote purged after its expiry is still this organization's expired quote: its id says when it expired.
    if (e instanceof DomainError && e.code === 'orders.quote_not_found' && d.quoteIds.expiredFor(org.id, quoteId, d.clock.now()))
      throw new DomainError('orders.quote_expired');
    throw e;
  }
  if (order) d.tally?.transition('order', order.state);
  return order;
}
