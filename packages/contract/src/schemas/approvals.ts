import { Type, type Static } from '@sinclair/typebox';
import { AmountInput, AmountString, DateTime, Nullable } from './common.ts';

/** One staff person's approval of an order or a withdrawal (four-eyes, docs/design/people-and-apps.md). */
export const ApprovalRecord = Type.Object({ staffId: Type.String(), name: Type.String(), at: DateTime });
export type ApprovalRecord = Static<typeof ApprovalRecord>;

/** What operator order and withdrawal records add: who approved, and how many approvals it needs (1 to 5, docs/controls.md). */
export const ApprovalFields = {
  approvals: Type.Array(ApprovalRecord),
  approvalsRequired: Type.Integer({ minimum: 1, maximum: 5 }),
};

/** PUT /operator/v1/policies/approvals/:asset; `null` removes the policy. */
export const PutApprovalPolicy = Type.Object({ secondApprovalFromMinor: Nullable(AmountInput) }, { additionalProperties: false });
export const ApprovalPolicyRecord = Type.Object({ assetSymbol: Type.String(), secondApprovalFromMinor: Nullable(AmountString) });
export type ApprovalPolicyRecord = Static<typeof ApprovalPolicyRecord>;
