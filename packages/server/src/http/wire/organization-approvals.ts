import type { OrganizationApprovals } from '../../domain/policy/approvals.ts';

/** A record's `approvals` on the wire (docs/controls.md); absent when no rule asked for approvals. */
export const approvalsWire = (a: OrganizationApprovals) => ({
  required: a.required,
  given: a.given.map((g) => ({ memberId: g.memberId, name: g.name, at: g.at.toISOString() })),
  waitingFor: a.waitingFor,
});

/** `{approvals}` to spread into a record: nothing when the request has none. */
export const withApprovals = (a: OrganizationApprovals | null | undefined) => (a ? { approvals: approvalsWire(a) } : {});

/** The approvals as the request's creation answered them: none given yet, waiting for the organization. */
export const asOpened = (a: OrganizationApprovals | null | undefined): OrganizationApprovals | null =>
  a ? { ...a, given: [], waitingFor: 'organization' } : null;
