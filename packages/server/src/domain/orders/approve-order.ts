import type { Approver } from '../approvals/four-eyes.ts';
import type { Market } from '../ports.ts';
import type { Order } from './order.ts';

/** What approval needs from the store: each step is one transaction, guarded on the order's state. */
export interface OrderDecisions {
  /**
   * Records the approval and, when it is the last one needed (four-eyes), moves pending_approval → approved,
   * audited; orders.not_found, or orders.already_decided for any other state. `decided: false`: a first of two.
   */
  markApproved(approver: Approver, orderId: string, note: string | null): Promise<{ order: Order; decided: boolean }>;
  /** approved → completed: captures the hold and posts the settlement. A no-op on an order no longer approved. */
  complete(actor: string, orderId: string, proceeds: bigint): Promise<Order>;
  /** approved → failed: releases the hold, credits nothing. A no-op on an order no longer approved. */
  fail(actor: string, orderId: string, reason: string): Promise<Order>;
}

/**
 * Approval (CONTRACT §3, §5): decide once, then execute at the market, then settle. The decision is
 * committed before the venue is called, so twenty concurrent approvals reach the venue once; the
 * venue is idempotent by order id, so a crash between the steps is recovered by `settleApproved`.
 */
export async function approveOrder(orders: OrderDecisions, market: Market, approver: Approver, orderId: string, note: string | null): Promise<Order> {
  const { order, decided } = await orders.markApproved(approver, orderId, note);
  // A first of two approvals (four-eyes): the order stays pending_approval.
  if (!decided) return order;
  return settleApproved(orders, market, approver.actor, order);
}

/** Executes an approved order at the market and settles it: completed with the proceeds, or failed with the hold released. */
export async function settleApproved(orders: OrderDecisions, market: Market, actor: string, o: Order): Promise<Order> {
  const ex = await market.execute({
    orderId: o.id, baseSymbol: o.baseSymbol, quoteSymbol: o.quoteSymbol, amountBaseMinor: o.amountBase, minProceedsQuoteMinor: o.amountQuote,
  });
  return ex.filled ? orders.complete(actor, o.id, ex.proceedsQuoteMinor) : orders.fail(actor, o.id, ex.reason);
}
