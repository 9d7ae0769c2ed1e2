import type { ApprovalKind } from '@cambio/contract';
import { DomainError } from '../errors.ts';

export interface GivenApproval {
  memberId: string;
  name: string;
  at: Date;
}

/**
 * What a request that a rule matched waits for (docs/controls.md): `required` members other than its
 * initiator, then the operator. The initiator is the member who made it, or who issued the API key that did.
 */
export interface OrganizationApprovals {
  kind: ApprovalKind;
  requestId: string;
  organizationId: string;
  initiatorMemberId: string;
  required: number;
  given: GivenApproval[];
  waitingFor: 'organization' | 'operator';
}

/** One member's approval added: refused to the initiator and to a member who gave one; the quorum met moves it to the operator. */
export function withApproval(a: OrganizationApprovals, member: { id: string; name: string }, at: Date): OrganizationApprovals {
  if (a.waitingFor !== 'organization') throw new DomainError('approvals.not_waiting', { state: 'waiting_for_operator' });
  if (member.id === a.initiatorMemberId) throw new DomainError('approvals.own_request');
  if (a.given.some((g) => g.memberId === member.id)) throw new DomainError('approvals.already_given');
  const given = [...a.given, { memberId: member.id, name: member.name, at }];
  return { ...a, given, waitingFor: given.length >= a.required ? 'operator' : 'organization' };
}

/** A rejection is refused only to the initiator (who may cancel instead) and once the quorum is met. */
export function checkRejection(a: OrganizationApprovals, memberId: string): void {
  if (a.waitingFor !== 'organization') throw new DomainError('approvals.not_waiting', { state: 'waiting_for_operator' });
  if (memberId === a.initiatorMemberId) throw new DomainError('approvals.own_request');
}

/** The operator decides only what waits for it (409 until the organization's quorum is met). */
export function checkOperatorMayDecide(a: OrganizationApprovals | null): void {
  if (a && a.waitingFor === 'organization')
    throw new DomainError('approvals.waiting_for_organization', { given: String(a.given.length), required: String(a.required) });
}
