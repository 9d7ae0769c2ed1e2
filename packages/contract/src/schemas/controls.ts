import { Type, type Static } from '@sinclair/typebox';
import { AmountInput, AmountString, DateTime, Money, Nullable } from './common.ts';

/**
 * The organization's own controls (docs/controls.md): ordered rules, first match wins, each naming how
 * many members other than the initiator must approve a request before the operator sees it.
 */
export const POLICY_ACTIONS = ['order', 'withdrawal', 'destination', 'policy'] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];

/**
 * A rule as sent. `action` and `approvals` are checked by the server, not by the schema, so a wrong
 * value answers a code of its own (`policy.unknown_action`, `policy.approvals_out_of_range`).
 */
export const PolicyRuleInput = Type.Object(
  {
    action: Type.String({ maxLength: 32, description: 'order, withdrawal, destination or policy' }),
    assetSymbol: Type.Optional(Nullable(Type.String({ maxLength: 12, description: 'only requests in this asset; any asset when absent' }))),
    fromAmountMinor: Type.Optional(
      Nullable(AmountInput, { description: "at or above this amount (the order's base amount, the withdrawal's amount)" }),
    ),
    approvals: Type.Integer({ description: 'how many members other than the initiator must approve, 0–5' }),
  },
  { additionalProperties: false },
);
export const PutPolicy = Type.Object({ rules: Type.Array(PolicyRuleInput, { maxItems: 50 }) }, { additionalProperties: false });
export type PutPolicy = Static<typeof PutPolicy>;

export const PolicyRule = Type.Object({
  action: Type.Unsafe<PolicyAction>({ type: 'string', enum: [...POLICY_ACTIONS] }),
  assetSymbol: Nullable(Type.String()),
  fromAmountMinor: Nullable(AmountString),
  approvals: Type.Integer({ minimum: 0, maximum: 5 }),
});
export type PolicyRule = Static<typeof PolicyRule>;

/** GET /portal/v1/policy: the rules in force; `updatedBy` is the member who last changed them (null: never). */
export const Policy = Type.Object({
  rules: Type.Array(PolicyRule),
  updatedAt: Nullable(DateTime),
  updatedBy: Nullable(Type.Object({ id: Type.String(), name: Type.String() })),
});
export type Policy = Static<typeof Policy>;

/** A policy change that waits for the organization's approvals (202). */
export const PendingPolicyChange = Type.Object({
  id: Type.String(),
  state: Type.Literal('pending_approval'),
});
export type PendingPolicyChange = Static<typeof PendingPolicyChange>;

export const GivenApproval = Type.Object({ memberId: Type.String(), name: Type.String(), at: DateTime });

/** What a request that waits for the organization adds to its record; absent when no rule asked for approvals. */
export const OrganizationApprovals = Type.Object({
  required: Type.Integer({ minimum: 1, maximum: 5 }),
  given: Type.Array(GivenApproval),
  waitingFor: Type.Unsafe<'organization' | 'operator'>({
    type: 'string',
    enum: ['organization', 'operator'],
    description: 'organization until the quorum is met, then operator',
  }),
});
export type OrganizationApprovals = Static<typeof OrganizationApprovals>;

export const APPROVAL_KINDS = ['orders', 'withdrawals', 'destinations', 'policy'] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];

/** An element of GET /portal/v1/approvals: a request that waits for the organization. */
export const WaitingApproval = Type.Object({
  kind: Type.Unsafe<ApprovalKind>({ type: 'string', enum: [...APPROVAL_KINDS] }),
  id: Type.String(),
  money: Nullable(Money),
  summary: Type.String({ description: 'what it is, in a few words (a destination, a pair)' }),
  requestedBy: Type.Object({ id: Type.String(), name: Type.String() }),
  approvals: OrganizationApprovals,
  createdAt: DateTime,
});
export type WaitingApproval = Static<typeof WaitingApproval>;

export const ApprovalsQuery = Type.Object({ state: Type.Optional(Type.Literal('waiting')) }, { additionalProperties: false });
export const ApprovalParams = Type.Object({
  kind: Type.Unsafe<ApprovalKind>({ type: 'string', enum: [...APPROVAL_KINDS] }),
  id: Type.String({ minLength: 1, maxLength: 64 }),
});
export const RejectApproval = Type.Object(
  { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) },
  { additionalProperties: false },
);

/** The answer of an approval or a rejection: where the request stands now. */
export const ApprovalOutcome = Type.Object({
  kind: Type.Unsafe<ApprovalKind>({ type: 'string', enum: [...APPROVAL_KINDS] }),
  id: Type.String(),
  state: Type.String({ description: "the request's state: pending_approval, rejected, or (a policy change) applied" }),
  approvals: OrganizationApprovals,
});
export type ApprovalOutcome = Static<typeof ApprovalOutcome>;

/**
 * An entry of the organization's own audit trail (GET /portal/v1/audit, `portal:audit`): who, what, when,
 * before and after. A member or a key is named; the operator's staff are `operator`, unnamed.
 */
export const OrganizationAuditEntry = Type.Object({
  id: Type.String(),
  actor: Type.Object({
    type: Type.Unsafe<'member' | 'key' | 'operator' | 'system'>({ type: 'string', enum: ['member', 'key', 'operator', 'system'] }),
    id: Nullable(Type.String({ description: "the member's or the key's id; null for the operator and the system" })),
    name: Nullable(Type.String({ description: 'the member (a key: the member who issued it), by their name now' })),
  }),
  action: Type.String(),
  subjectType: Type.String(),
  subjectId: Type.String(),
  before: Type.Unknown(),
  after: Type.Unknown(),
  createdAt: DateTime,
});
export type OrganizationAuditEntry = Static<typeof OrganizationAuditEntry>;
