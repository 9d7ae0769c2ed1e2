import type { Approver } from '../../domain/approvals/four-eyes.ts';
import { DomainError } from '../../domain/errors.ts';
import type { Order } from '../../domain/orders/order.ts';
import { checkOperatorMayDecide } from '../../domain/policy/approvals.ts';
import { recordApproval } from '../approvals/record-approval.ts';
import type { Tx, UseCaseDeps } from '../ports.ts';
import { orderAudit } from './audit-view.ts';
import { executeApproved } from './execute-approved.ts';

/**
 * Approval (docs/operator-guide.md, docs/design/money-and-states.md): decide once, then execute at the venue, then settle. The decision is
 * committed before the venue is called, so twenty concurrent approvals reach the venue once; the
 * venue is idempotent by order id, so a crash between the steps is recovered (recoverApproved).
 * Refused while not reconciled: executing at a market whose balance disagrees with the books would
 * compound the mismatch.
 */
export async function approveOrder(d: UseCaseDeps, approver: Approver, orderId: string, note: string | null): Promise<Order> {
  const at = d.clock.now();
  const { actor } = approver;
  const { order, decided } = await d.store.uow.run(async (tx) => {
    await d.store.platform.assertReconciled(tx);
    const pending = await d.store.orders.lockPending(tx, orderId);
    // The organization's own approvals come first (docs/controls.md); its members' approvals lock the same row.
    checkOperatorMayDecide(await d.store.controls.of(tx, 'orders', orderId));
    const { decides, state } = await recordApproval(
      d.store.approvals,
      tx,
      at,
      'order',
      { id: orderId, asset: pending.baseSymbol, amount: pending.amountBase, organizationId: pending.organizationId },
      approver,
    );
    const approvals = state.approvals.map((a) => ({ staffId: a.staffId, name: a.name }));
    if (!decides) {
      // A first of two approvals (four-eyes): the order stays pending_approval.
      await d.store.audit.record(tx, d.ids, at, {
        actor,
        action: 'order.approval',
        subjectType: 'order',
        subjectId: orderId,
        before: orderAudit(pending),
        after: { ...orderAudit(pending), approvals, approvalsRequired: state.approvalsRequired, ...(note ? { note } : {}) },
      });
      return { order: pending, decided: false };
    }
    const { before, after } = await d.store.orders.decide(tx, orderId, 'approved', at, null);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'order.approve',
      subjectType: 'order',
      subjectId: orderId,
      before: orderAudit(before),
      after: { ...orderAudit(after), approvals, ...(note ? { note } : {}) },
    });
    return { order: after, decided: true };
  });
  if (!decided) return order;
  d.tally?.transition('order', 'approved');
  return executeApproved(d, actor, order);
}

/**
 * The organization withdraws its own request while it is still pending_approval: the hold is
 * released in the same transaction. Another organization's order is not found; a decided one is 409. The
 * decision's `state = 'pending_approval'` condition, re-read after an approval's row lock, makes a cancel
 * racing an approval or a rejection settle exactly one of them.
 */
export async function cancelOrder(d: UseCaseDeps, actor: string, organizationId: string, orderId: string): Promise<Order> {
  const at = d.clock.now();
  return counted(
    d,
    await d.store.uow.run(async (tx) => {
      if (!(await d.store.orders.belongsTo(tx, orderId, organizationId))) throw new DomainError('orders.not_found');
      const { before, after } = await d.store.orders.decide(tx, orderId, 'cancelled', at, null);
      await d.store.holds.release(tx, d.ids, at, after.holdId, 'order_release', orderId);
      await d.store.audit.record(tx, d.ids, at, {
        actor,
        action: 'order.cancel',
        subjectType: 'order',
        subjectId: orderId,
        before: orderAudit(before),
        after: orderAudit(after),
      });
      return after;
    }),
  );
}

/**
 * The operator rejects: the hold is released in the same transaction as the decision. Not while the
 * order waits for its organization's members (docs/controls.md).
 */
export async function rejectOrder(d: UseCaseDeps, actor: string, orderId: string, reason: string | null): Promise<Order> {
  return counted(
    d,
    await d.store.uow.run(async (tx) => {
      await d.store.orders.lockPending(tx, orderId);
      checkOperatorMayDecide(await d.store.controls.of(tx, 'orders', orderId));
      return releaseOrder(d, tx, actor, orderId, reason);
    }),
  );
}

/** Ends a pending order as rejected, in `tx`: the hold released in the same transaction as the decision. */
export async function releaseOrder(d: UseCaseDeps, tx: Tx, actor: string, orderId: string, reason: string | null): Promise<Order> {
  const at = d.clock.now();
  const { before, after } = await d.store.orders.decide(tx, orderId, 'rejected', at, reason);
  await d.store.holds.release(tx, d.ids, at, after.holdId, 'order_release', orderId);
  await d.store.audit.record(tx, d.ids, at, {
    actor,
    action: 'order.reject',
    subjectType: 'order',
    subjectId: orderId,
    before: orderAudit(before),
    after: orderAudit(after),
  });
  return after;
}

/** The order's new state, counted once its transaction committed. */
export function counted(d: UseCaseDeps, o: Order): Order {
  d.tally?.transition('order', o.state);
  return o;
}
