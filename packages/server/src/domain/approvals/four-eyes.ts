import { DomainError } from '../errors.ts';

/**
 * Four-eyes (docs/design/people-and-apps.md). Who approves: a staff person (one of two approvals counts per person), or the
 * bootstrap token (`person: null`), which may approve only what needs one approval.
 */
export interface Approver {
  /** The audit trail's actor: `staff:<id>` or `bootstrap`. */
  actor: string;
  person: { id: string; name: string; email: string } | null;
}

export interface Approval {
  staffId: string;
  name: string;
  at: Date;
}

export interface ApprovalState {
  approvals: Approval[];
  approvalsRequired: 1 | 2;
}

/** An amount at or above the asset's threshold needs two approvals; no policy, one. */
export function approvalsRequired(secondApprovalFrom: bigint | null, amount: bigint): 1 | 2 {
  return secondApprovalFrom !== null && amount >= secondApprovalFrom ? 2 : 1;
}

export type ApprovalSubject = 'order' | 'withdrawal';

/**
 * Decides whether this approval is the deciding one, given the approvals already recorded. Refuses the
 * bootstrap token on a request that needs two persons, and the same person twice.
 */
export function nextApproval(
  kind: ApprovalSubject,
  required: 1 | 2,
  recorded: readonly Approval[],
  approver: Approver,
): { record: boolean; decides: boolean } {
  // One approval decides. A person who approved while two were required (the policy since removed) has
  // their approval recorded already: it is not written twice.
  if (required === 1)
    return { record: approver.person !== null && !recorded.some((a) => a.staffId === approver.person!.id), decides: true };
  if (!approver.person) throw new DomainError(kind === 'order' ? 'orders.approval_needs_person' : 'withdrawals.approval_needs_person');
  if (recorded.some((a) => a.staffId === approver.person!.id)) {
    throw new DomainError(kind === 'order' ? 'orders.already_approved_by_you' : 'withdrawals.already_approved_by_you');
  }
  return { record: true, decides: recorded.length + 1 >= required };
}
