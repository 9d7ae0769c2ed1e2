import {
  approvalsRequired,
  nextApproval,
  type ApprovalState,
  type ApprovalSubject,
  type Approver,
} from '../../domain/approvals/four-eyes.ts';
import type { ApprovalsRepository, Tx } from '../repositories.ts';

/**
 * One approval of a pending order or withdrawal (four-eyes, docs/design/people-and-apps.md), inside the transaction that
 * holds the request's row lock, so two persons on the last approval are serialized and the request is
 * decided once. Refuses the bootstrap token where two persons are needed and the same person twice;
 * records the person and answers whether this approval decides the request. The caller writes the audit.
 */
export async function recordApproval(
  repo: ApprovalsRepository,
  tx: Tx,
  at: Date,
  kind: ApprovalSubject,
  subject: { id: string; asset: string; amount: bigint },
  approver: Approver,
): Promise<{ decides: boolean; state: ApprovalState }> {
  const required = approvalsRequired(await repo.policyIn(tx, subject.asset), subject.amount);
  const before = await repo.approvalsOf(tx, kind, subject.id);
  const { record, decides } = nextApproval(kind, required, before, approver);
  const approvals = [...before];
  if (record && approver.person) {
    await repo.insertApproval(tx, at, kind, subject.id, approver.person);
    approvals.push({ staffId: approver.person.id, name: approver.person.name, at });
  }
  return { decides, state: { approvals, approvalsRequired: required } };
}
