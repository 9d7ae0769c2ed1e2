import type { ApprovalState } from '../domain/approvals/four-eyes.ts';
import type { Order } from '../domain/orders/order.ts';
import type { Store } from '../store/index.ts';
import type { WithdrawalRow } from '../store/withdrawals-store.ts';

/** The wire of four-eyes on an operator record: `approvals: [{staffId, name, at}]`, `approvalsRequired`. */
export const approvalsWire = (s: ApprovalState) => ({
  approvals: s.approvals.map((a) => ({ staffId: a.staffId, name: a.name, at: a.at.toISOString() })),
  approvalsRequired: s.approvalsRequired,
});

export type ApprovalsWire = ReturnType<typeof approvalsWire>;

const NONE: ApprovalState = { approvals: [], approvalsRequired: 1 };

/** The approval state of each order, in order. */
export async function orderApprovals(store: Store, orders: readonly Order[]) {
  const m = await store.approvals.stateOf(
    'order',
    orders.map((o) => ({
      id: o.id,
      asset: o.baseSymbol,
      amount: o.amountBase,
      organizationId: o.organizationId,
      pending: o.state === 'pending_approval',
    })),
  );
  return orders.map((o) => approvalsWire(m.get(o.id) ?? NONE));
}

/** The approval state of each withdrawal, in order. */
export async function withdrawalApprovals(store: Store, ws: readonly WithdrawalRow[]) {
  const m = await store.approvals.stateOf(
    'withdrawal',
    ws.map((w) => ({
      id: w.id,
      asset: w.assetSymbol,
      amount: w.amount,
      organizationId: w.organizationId,
      pending: w.state === 'pending_approval',
    })),
  );
  return ws.map((w) => approvalsWire(m.get(w.id) ?? NONE));
}
