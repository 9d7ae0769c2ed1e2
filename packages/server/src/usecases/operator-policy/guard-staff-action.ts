import { checkCounts, type Approver } from '../../domain/approvals/four-eyes.ts';
import { matchRule } from '../../domain/approvals/operator-rules.ts';
import { firstApprovals, type StaffRequest, type StaffRequestKind } from '../../domain/approvals/staff-request.ts';
import { DomainError } from '../../domain/errors.ts';
import type { Tx, UseCaseDeps } from '../ports.ts';
import { requestAudit } from './request-audit.ts';

export interface StaffAction {
  kind: StaffRequestKind;
  organizationId: string;
  assetSymbol: string;
  amount: bigint;
  subjectId: string | null;
  note: string;
}

/**
 * In the transaction of an adjustment or an attribution (docs/controls.md): no rule of the operator's
 * policy matching, null (it applies now, as without a policy); a rule of one approval, null when the
 * person doing it counts for it (the bootstrap token, or a role the rule does not name, is refused); a
 * rule of two or more, the request it becomes, written with the asker's own approval when their role counts.
 */
export async function guardStaffAction(d: UseCaseDeps, tx: Tx, at: Date, by: Approver, a: StaffAction): Promise<StaffRequest | null> {
  const rule = matchRule(await d.store.approvals.operatorRulesIn(tx), { action: a.kind, ...a });
  if (!rule) return null;
  if (rule.approvals === 1) {
    if (!by.person) throw new DomainError('requests.approval_needs_person', { required: '1' });
    checkCounts(rule.roles, by.person.role);
    return null;
  }
  if (a.subjectId !== null && (await d.store.staffRequests.pendingFor(tx, a.subjectId))) throw new DomainError('requests.already_pending');
  const r: StaffRequest = {
    id: d.ids.next('req'),
    kind: a.kind,
    state: 'pending_approval',
    organizationId: a.organizationId,
    assetSymbol: a.assetSymbol,
    amount: a.amount,
    subjectId: a.subjectId,
    note: a.note,
    required: rule.approvals,
    roles: rule.roles,
    approvals: firstApprovals(rule.roles, by, at),
    requestedBy: { actor: by.actor, name: by.person?.name ?? 'bootstrap' },
    reason: null,
    createdAt: at,
    updatedAt: at,
  };
  await d.store.staffRequests.insert(tx, r);
  await d.store.audit.record(tx, d.ids, at, {
    actor: by.actor,
    action: 'request.create',
    subjectType: 'operator_request',
    subjectId: r.id,
    before: null,
    after: requestAudit(r),
  });
  return r;
}
