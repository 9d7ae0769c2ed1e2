import { DomainError } from '../../domain/errors.ts';
import { checkAcceptance, orderOf, type Order } from '../../domain/orders/order.ts';
import type { Organization } from '../../domain/organizations/organization.ts';
import type { QuoteIds } from '../../domain/quotes/quote-id.ts';
import type { OrganizationApprovals } from '../../domain/policy/approvals.ts';
import { openApprovals } from '../controls/open-approvals.ts';
import type { UseCaseDeps } from '../ports.ts';

/**
 * Accepts a quote once (docs/design/money-and-states.md): an exchange request pending approval whose base amount is held. In one
 * transaction: the stop while not reconciled, the quote locked and checked (domain/orders/order.ts), the hold
 * taken (which refuses a balance that cannot back it), the order written and the quote consumed. A refusal
 * writes nothing. Its event (order.created) is written by the table's trigger. When the organization's
 * policy asks its members to approve it, it waits for them first (docs/controls.md); the quote's rate
 * stays the order's whenever they do (the quote was accepted when the order was placed).
 */
export async function placeOrder(
  d: UseCaseDeps & { quoteIds: QuoteIds },
  org: Pick<Organization, 'id' | 'limits'>,
  quoteId: string,
  initiatorMemberId = '',
): Promise<Order & { approvals: OrganizationApprovals | null }> {
  const at = d.clock.now();
  const id = d.ids.next('ord');
  let order: Order & { approvals: OrganizationApprovals | null };
  try {
    order = await d.store.uow.run(async (tx) => {
      await d.store.platform.assertReconciled(tx);
      const quote = checkAcceptance(await d.store.quotes.lockToAccept(tx, org.id, quoteId), org.limits, at);
      const hold = {
        organizationId: org.id,
        assetSymbol: quote.baseSymbol,
        amount: quote.amountBaseMinor,
        kind: 'order_hold',
        referenceId: id,
      } as const;
      const o = await d.store.holds.take(tx, d.ids, at, hold, async (holdId) => {
        const o = orderOf(quote, id, holdId, at);
        await d.store.orders.insert(tx, o);
        await d.store.quotes.consume(tx, quote.id, at);
        return o;
      });
      const approvals = await openApprovals(d, tx, at, {
        kind: 'orders',
        action: 'order',
        requestId: id,
        organizationId: org.id,
        initiatorMemberId,
        assetSymbol: quote.baseSymbol,
        amount: quote.amountBaseMinor,
      });
      return { ...o, approvals };
    });
  } catch (e) {
    // An unaccepted quote purged after its expiry is still this organization's expired quote: its id says when it expired.
    if (e instanceof DomainError && e.code === 'orders.quote_not_found' && d.quoteIds.expiredFor(org.id, quoteId, at))
      throw new DomainError('orders.quote_expired');
    throw e;
  }
  d.tally?.transition('order', order.state);
  return order;
}
