import type { Approver } from '../../domain/approvals/four-eyes.ts';
import type { StaffRequest } from '../../domain/approvals/staff-request.ts';
import type { Tx, UseCaseDeps } from '../ports.ts';
import { guardStaffAction } from '../operator-policy/guard-staff-action.ts';

export interface Adjustment {
  organizationId: string;
  assetSymbol: string;
  amount: bigint;
  reason: string;
}

/**
 * A signed manual adjustment (docs/operator-guide.md): sandbox funding and corrections, against the platform's
 * `clearing` account, carried on to `market` by the platform's own entry, so the venue's books follow in the
 * same transaction. Audited. When a rule of the operator's policy asks two or more staff persons to approve
 * it (docs/controls.md), it waits as a request instead, and applies at the approval that meets the rule.
 */
export async function adjustBalance(
  d: UseCaseDeps,
  by: Approver,
  r: Adjustment,
): Promise<{ applied: { entryId: string; available: bigint } } | { request: StaffRequest }> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    const request = await guardStaffAction(d, tx, at, by, {
      kind: 'adjustment',
      organizationId: r.organizationId,
      assetSymbol: r.assetSymbol,
      amount: r.amount,
      subjectId: null,
      note: r.reason,
    });
    if (request) return { request };
    return { applied: await applyAdjustment(d, tx, at, by.actor, r) };
  });
}

/** Posts the adjustment in `tx` and writes its audit entry. */
export async function applyAdjustment(
  d: UseCaseDeps,
  tx: Tx,
  at: Date,
  actor: string,
  r: Adjustment,
): Promise<{ entryId: string; available: bigint }> {
  const entryId = d.ids.next('je');
  const clearingId = d.ids.next('je');
  const { before, after } = await d.store.accounts.adjust(tx, [entryId, clearingId], at, r);
  await d.venue.fundsMoved(tx, r.assetSymbol, r.amount);
  await d.store.audit.record(tx, d.ids, at, {
    actor,
    action: 'ledger.adjustment',
    subjectType: 'organization',
    subjectId: r.organizationId,
    before: { assetSymbol: r.assetSymbol, availableMinor: before.toString() },
    after: { assetSymbol: r.assetSymbol, availableMinor: after.toString(), amountMinor: r.amount.toString(), reason: r.reason, entryId },
  });
  return { entryId, available: after };
}
