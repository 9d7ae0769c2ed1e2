import type { Market } from '../ports.ts';
import type { Order } from './order.ts';

/** What approval needs from the store: each step is one transaction, guarded on the order's state. */
export interface OrderDecisions {
  /** pending_approval → approved, audited; orders.not_found, or orders.already_decided for any other state. */
  markApproved(actor: string, orderId: string, note: string | null): Promise<Order>;
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
export async function approveOrder(orders: OrderDecisions, market: Market, actor: string, orderId: string, note: string | null): Promise<Order> {
  const approved = await orders.markApproved(actor, orderId, note);
  return settleApproved(orders, market, actor, approved);
}

/** Executes an approved order at the market and settles it: completed with the proceeds, or failed with the hold released. */
export async function settleApproved(orders: OrderDecisions, market: Market, actor: string, o: Order): Promise<Order> {
  const ex = await market.execute({
    orderId: o.id, baseSymbol: o.baseSymbol, quoteSymbol: o.quoteSymbol, amountBaseMinor: o.amountBase, minProceedsQuoteMinor: o.amountQuote,
  });
  return ex.filled ? orders.complete(actor, o.id, ex.proceedsQuoteMinor) : orders.fail(actor, o.id, ex.reason);
}
