import type { Order } from '../../domain/orders/order.ts';
import { recordAudit } from '../../store/audit-store.ts';
import { releaseHold } from '../../store/holds.ts';
import { assertReconciled } from '../../store/platform-state-store.ts';
import type { UseCaseDeps } from '../ports.ts';
import { orderAudit } from './audit-view.ts';
import { executeApproved } from './execute-approved.ts';

/**
 * Approval (CONTRACT §3, §5): decide once, then execute at the venue, then settle. The decision is
 * committed before the venue is called, so twenty concurrent approvals reach the venue once; the
 * venue is idempotent by order id, so a crash between the steps is recovered (recoverApproved).
 * Refused while not reconciled: executing at a market whose balance disagrees with the books would
 * compound the mismatch.
 */
export async function approveOrder(d: UseCaseDeps, actor: string, orderId: string, note: string | null): Promise<Order> {
  const at = d.clock.now();
  const approved = await d.store.uow.run(async (tx) => {
    await assertReconciled(tx);
    const { before, after } = await d.store.orders.decide(tx, orderId, 'approved', at, null);
    await recordAudit(tx, d.ids, at, { actor, action: 'order.approve', subjectType: 'order', subjectId: orderId, before: orderAudit(before), after: { ...orderAudit(after), ...(note ? { note } : {}) } });
    return after;
  });
  return executeApproved(d, actor, approved);
}

/** Rejection releases the hold in the same transaction as the decision. */
export async function rejectOrder(d: UseCaseDeps, actor: string, orderId: string, reason: string | null): Promise<Order> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    const { before, after } = await d.store.orders.decide(tx, orderId, 'rejected', at, reason);
    await releaseHold(tx, d.ids, at, after.holdId, 'order_release', orderId);
    await recordAudit(tx, d.ids, at, { actor, action: 'order.reject', subjectType: 'order', subjectId: orderId, before: orderAudit(before), after: orderAudit(after) });
    return after;
  });
}
