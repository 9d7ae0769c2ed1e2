import type { Approver } from '../../domain/approvals/four-eyes.ts';
import { approveStaffRequest, checkRejectable, type StaffRequest } from '../../domain/approvals/staff-request.ts';
import { DomainError } from '../../domain/errors.ts';
import { applyAttribution } from '../deposits/record-arrival.ts';
import { applyAdjustment } from '../ledger/adjust.ts';
import type { Tx, UseCaseDeps } from '../ports.ts';
import { requestAudit } from './request-audit.ts';

async function locked(d: UseCaseDeps, tx: Tx, id: string): Promise<StaffRequest> {
  const r = await d.store.staffRequests.lock(tx, id);
  if (!r) throw new DomainError('requests.not_found');
  return r;
}

/**
 * One staff person approves a waiting adjustment or attribution (docs/controls.md), its row locked, so two
 * last approvals at once apply it once. The approval that meets the rule applies it in the same
 * transaction (the adjustment posted, the arrival credited); an approval and a rejection at once end one way.
 */
export async function approveStaffRequestNow(d: UseCaseDeps, by: Approver, id: string): Promise<StaffRequest> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    const before = await locked(d, tx, id);
    const { approvals, decides } = approveStaffRequest(before, by, at);
    const after: StaffRequest = { ...before, approvals, state: decides ? 'applied' : 'pending_approval', updatedAt: at };
    if (decides) {
      if (before.kind === 'adjustment')
        await applyAdjustment(d, tx, at, by.actor, {
          organizationId: before.organizationId,
          assetSymbol: before.assetSymbol,
          amount: before.amount,
          reason: before.note,
        });
      else await applyAttribution(d, tx, at, by.actor, before.subjectId!, before.organizationId);
    }
    await d.store.staffRequests.save(tx, id, { state: after.state, approvals, reason: null }, at);
    await d.store.audit.record(tx, d.ids, at, {
      actor: by.actor,
      action: decides ? 'request.apply' : 'request.approval',
      subjectType: 'operator_request',
      subjectId: id,
      before: requestAudit(before),
      after: requestAudit(after),
    });
    return after;
  });
}

/** A staff person rejects a waiting request: it ends, nothing applied, the reason kept. */
export async function rejectStaffRequest(d: UseCaseDeps, by: Approver, id: string, reason: string | null): Promise<StaffRequest> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    const before = await locked(d, tx, id);
    checkRejectable(before);
    const after: StaffRequest = { ...before, state: 'rejected', reason, updatedAt: at };
    await d.store.staffRequests.save(tx, id, { state: 'rejected', approvals: before.approvals, reason }, at);
    await d.store.audit.record(tx, d.ids, at, {
      actor: by.actor,
      action: 'request.reject',
      subjectType: 'operator_request',
      subjectId: id,
      before: requestAudit(before),
      after: requestAudit(after),
    });
    return after;
  });
}
