import type { Order } from '../../domain/orders/order.ts';

/** An order as the audit trail records it, before and after a change. */
export const orderAudit = (o: Order) => ({
  state: o.state,
  organizationId: o.organizationId,
  baseSymbol: o.baseSymbol,
  amountBaseMinor: o.amountBase.toString(),
  quoteSymbol: o.quoteSymbol,
  amountQuoteMinor: o.amountQuote.toString(),
  ...(o.proceedsQuote !== null ? { proceedsQuoteMinor: o.proceedsQuote.toString() } : {}),
  ...(o.reason !== null ? { reason: o.reason } : {}),
  ...(o.venue !== null ? { venue: o.venue, venueReference: o.venueReference } : {}),
});
