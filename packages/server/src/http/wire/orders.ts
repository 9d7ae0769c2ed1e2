import type { Order } from '../../domain/orders/order.ts';
import type { OrganizationApprovals } from '../../domain/policy/approvals.ts';
import { withApprovals } from './organization-approvals.ts';

/**
 * An exchange request as its organization sees it (the operator's view adds to it); `approvals` only when
 * its organization's policy asked for them (docs/controls.md).
 */
export const orderWire = (o: Order, approvals?: OrganizationApprovals | null) => ({
  id: o.id,
  state: o.state,
  quoteId: o.quoteId,
  base: { assetSymbol: o.baseSymbol, assetDecimals: o.baseDecimals, amountMinor: o.amountBase.toString() },
  quote: { assetSymbol: o.quoteSymbol, assetDecimals: o.quoteDecimals, amountMinor: o.amountQuote.toString() },
  rateQuoteMinor: o.rateQuoteMinor.toString(),
  reason: o.reason,
  createdAt: o.createdAt.toISOString(),
  updatedAt: o.updatedAt.toISOString(),
  ...withApprovals(approvals),
});
