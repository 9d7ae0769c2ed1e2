import { DomainError } from '../errors.ts';
import type { Approval, Approver } from './four-eyes.ts';
import { checkCounts } from './four-eyes.ts';
import type { CountingRole } from './operator-rules.ts';

/**
 * An adjustment or an attribution that a rule of the operator's policy asks two or more staff persons to
 * approve (docs/controls.md): it waits in the queue, the person who asked counting as its first approval
 * when their role counts, and applies at the approval that meets the rule.
 */
export type StaffRequestKind = 'adjustment' | 'attribution';
export type StaffRequestState = 'pending_approval' | 'applied' | 'rejected';

export interface StaffRequest {
  id: string;
  kind: StaffRequestKind;
  state: StaffRequestState;
  organizationId: string;
  assetSymbol: string;
  /** Signed for an adjustment; the arrival's amount for an attribution. */
  amount: bigint;
  /** The deposit an attribution credits; null for an adjustment. */
  subjectId: string | null;
  /** An adjustment's reason, as the person who asked wrote it. */
  note: string;
  required: number;
  roles: readonly CountingRole[];
  approvals: Approval[];
  requestedBy: { actor: string; name: string };
  /** Why it was rejected. */
  reason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The approvals a new request starts with: the person who asked, when their role counts. */
export function firstApprovals(roles: readonly CountingRole[], asker: Approver, at: Date): Approval[] {
  const p = asker.person;
  return p && (roles as readonly string[]).includes(p.role) ? [{ staffId: p.id, name: p.name, at }] : [];
}

/** One more approval: refused when it no longer waits, to the bootstrap token, to a role that does not count and to the same person twice. */
export function approveStaffRequest(r: StaffRequest, approver: Approver, at: Date): { approvals: Approval[]; decides: boolean } {
  if (r.state !== 'pending_approval') throw new DomainError('requests.not_waiting', { state: r.state });
  const p = approver.person;
  if (!p) throw new DomainError('requests.approval_needs_person', { required: String(r.required) });
  checkCounts(r.roles, p.role);
  if (r.approvals.some((a) => a.staffId === p.id)) throw new DomainError('requests.already_approved_by_you');
  const approvals = [...r.approvals, { staffId: p.id, name: p.name, at }];
  return { approvals, decides: approvals.length >= r.required };
}

/** A rejection ends a request that still waits. */
export function checkRejectable(r: StaffRequest): void {
  if (r.state !== 'pending_approval') throw new DomainError('requests.not_waiting', { state: r.state });
}
