import { nextApproval, requirementOf, type ApprovalState, type ApprovalSubject, type Approver } from '../../domain/approvals/four-eyes.ts';
import type { ApprovalsRepository, Tx } from '../repositories.ts';

/**
 * One approval of a pending order or withdrawal (docs/controls.md, "The operator's policy"), inside the
 * transaction that holds the request's row lock, so two persons on the last approval are serialized and
 * the request is decided once. The operator's published rules decide how many persons and which roles,
 * then the asset's four-eyes threshold; refuses the bootstrap token under a rule, a role the rule does not
 * count and the same person twice; records the person and answers whether this approval decides the
 * request. The caller writes the audit.
 */
export async function recordApproval(
  repo: ApprovalsRepository,
  tx: Tx,
  at: Date,
  kind: ApprovalSubject,
  subject: { id: string; asset: string; amount: bigint; organizationId: string },
  approver: Approver,
): Promise<{ decides: boolean; state: ApprovalState }> {
  const need = requirementOf(await repo.operatorRulesIn(tx), await repo.policyIn(tx, subject.asset), {
    action: kind,
    assetSymbol: subject.asset,
    organizationId: subject.organizationId,
    amount: subject.amount,
  });
  const before = await repo.approvalsOf(tx, kind, subject.id);
  const { record, decides } = nextApproval(kind, need, before, approver);
  const approvals = [...before];
  if (record && approver.person) {
    await repo.insertApproval(tx, at, kind, subject.id, approver.person);
    approvals.push({ staffId: approver.person.id, name: approver.person.name, at });
  }
  return { decides, state: { approvals, approvalsRequired: need.required } };
}
