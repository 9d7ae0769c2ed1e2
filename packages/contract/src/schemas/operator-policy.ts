import { Type, type Static } from '@sinclair/typebox';
import { AmountInput, AmountString, DateTime, Nullable } from './common.ts';
import { ApprovalRecord } from './approvals.ts';

/**
 * The operator's policy (docs/controls.md): ordered rules, first match wins, each naming how many
 * different staff persons, of which roles, must approve an order, a withdrawal, an adjustment or an
 * attribution. Admins write drafts; another admin publishes one.
 */
export const OPERATOR_POLICY_ACTIONS = ['order', 'withdrawal', 'adjustment', 'attribution'] as const;
export type OperatorPolicyAction = (typeof OPERATOR_POLICY_ACTIONS)[number];

/** A rule as sent: `action`, `approvals` and `roles` are checked by the server, so each wrong value answers a code of its own. */
export const OperatorRuleInput = Type.Object(
  {
    action: Type.String({ maxLength: 32, description: 'order, withdrawal, adjustment or attribution' }),
    assetSymbol: Type.Optional(Nullable(Type.String({ maxLength: 12, description: 'only requests in this asset; any when absent' }))),
    organizationId: Type.Optional(
      Nullable(Type.String({ maxLength: 64, description: 'only requests of this organization; any when absent' })),
    ),
    fromAmountMinor: Type.Optional(
      Nullable(AmountInput, { description: "at or above this amount (an order's base amount; an adjustment by its size)" }),
    ),
    approvals: Type.Integer({ description: 'how many different staff persons must approve, 1–5' }),
    roles: Type.Optional(
      Nullable(
        Type.Array(Type.String({ maxLength: 16 }), { maxItems: 3, description: 'roles that count; approver and admin when absent' }),
      ),
    ),
  },
  { additionalProperties: false },
);
export const PutOperatorRules = Type.Object({ rules: Type.Array(OperatorRuleInput, { maxItems: 50 }) }, { additionalProperties: false });
export type PutOperatorRules = Static<typeof PutOperatorRules>;

export const OperatorRule = Type.Object({
  action: Type.Unsafe<OperatorPolicyAction>({ type: 'string', enum: [...OPERATOR_POLICY_ACTIONS] }),
  assetSymbol: Nullable(Type.String()),
  organizationId: Nullable(Type.String()),
  fromAmountMinor: Nullable(AmountString),
  approvals: Type.Integer({ minimum: 1, maximum: 5 }),
  roles: Type.Array(Type.String()),
});
export type OperatorRule = Static<typeof OperatorRule>;

const Actor = Type.Object({ actor: Type.String({ description: 'staff:<id> or bootstrap' }), name: Type.String() });

/** GET /operator/v1/policies/rules: the rules in force. */
export const OperatorPolicy = Type.Object({
  rules: Type.Array(OperatorRule),
  draftId: Nullable(Type.String({ description: 'the draft these rules were published from' })),
  publishedAt: Nullable(DateTime),
  publishedBy: Nullable(Actor),
});
export type OperatorPolicy = Static<typeof OperatorPolicy>;

export const OperatorPolicyDraft = Type.Object({
  id: Type.String(),
  rules: Type.Array(OperatorRule),
  author: Actor,
  state: Type.Unsafe<'draft' | 'published' | 'superseded'>({ type: 'string', enum: ['draft', 'published', 'superseded'] }),
  publishedBy: Nullable(Actor),
  createdAt: DateTime,
});
export type OperatorPolicyDraft = Static<typeof OperatorPolicyDraft>;

/** An adjustment or an attribution that waits for staff approvals (202 when asked for; the queue lists them). */
export const StaffRequestRecord = Type.Object({
  id: Type.String(),
  kind: Type.Unsafe<'adjustment' | 'attribution'>({ type: 'string', enum: ['adjustment', 'attribution'] }),
  state: Type.Unsafe<'pending_approval' | 'applied' | 'rejected'>({ type: 'string', enum: ['pending_approval', 'applied', 'rejected'] }),
  organizationId: Type.String(),
  assetSymbol: Type.String(),
  assetDecimals: Type.Integer(),
  amountMinor: Type.String({ description: 'signed for an adjustment' }),
  depositId: Nullable(Type.String()),
  note: Type.String({ description: "an adjustment's reason" }),
  approvalsRequired: Type.Integer({ minimum: 1, maximum: 5 }),
  roles: Type.Array(Type.String()),
  approvals: Type.Array(ApprovalRecord),
  requestedBy: Actor,
  reason: Nullable(Type.String({ description: 'why it was rejected' })),
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type StaffRequestRecord = Static<typeof StaffRequestRecord>;

export const StaffRequestsQuery = Type.Object(
  {
    state: Type.Optional(
      Type.Unsafe<'pending_approval' | 'applied' | 'rejected'>({ type: 'string', enum: ['pending_approval', 'applied', 'rejected'] }),
    ),
  },
  { additionalProperties: false },
);
export const RejectStaffRequest = Type.Object(
  { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) },
  { additionalProperties: false },
);
