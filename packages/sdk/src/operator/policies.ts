import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import { enc } from './organizations.ts';

/** Four-eyes: an order's base amount or a withdrawal's amount at or above this needs two different people. */
export type ApprovalPolicy = Amounts<{ assetSymbol: string; secondApprovalFromMinor: string | null }>;

/** A rule of the operator's policy (docs/controls.md): the first that matches decides how many staff persons approve. */
export type OperatorRule = Amounts<{
  action: 'order' | 'withdrawal' | 'adjustment' | 'attribution';
  assetSymbol: string | null;
  organizationId: string | null;
  fromAmountMinor: string | null;
  approvals: number;
  roles: string[];
}>;
/** A rule as sent: absent fields match anything; `roles` defaults to approver and admin. */
export interface OperatorRuleInput {
  action: OperatorRule['action'];
  approvals: number;
  assetSymbol?: string | null;
  organizationId?: string | null;
  fromAmountMinor?: bigint | string | null;
  roles?: string[] | null;
}
export interface OperatorActor {
  actor: string;
  name: string;
}
export interface PublishedRules {
  rules: OperatorRule[];
  draftId: string | null;
  publishedAt: string | null;
  publishedBy: OperatorActor | null;
}
export interface RulesDraft {
  id: string;
  rules: OperatorRule[];
  author: OperatorActor;
  state: 'draft' | 'published' | 'superseded';
  publishedBy: OperatorActor | null;
  createdAt: string;
}

/** An adjustment or an attribution that waits for staff approvals under the operator's rules. */
export type StaffRequest = Amounts<{
  id: string;
  kind: 'adjustment' | 'attribution';
  state: 'pending_approval' | 'applied' | 'rejected';
  organizationId: string;
  assetSymbol: string;
  assetDecimals: number;
  /** Signed for an adjustment. */
  amountMinor: string;
  depositId: string | null;
  note: string;
  approvalsRequired: number;
  roles: string[];
  approvals: Array<{ staffId: string; name: string; at: string }>;
  requestedBy: OperatorActor;
  reason: string | null;
  createdAt: string;
  updatedAt: string;
}>;

export class OperatorPolicies {
  constructor(private readonly t: Transport) {}

  async list(): Promise<ApprovalPolicy[]> {
    return (await this.t.get<ApprovalPolicy[]>('/policies/approvals')).data;
  }

  /** `null` removes the policy: one approval, as before. */
  async put(assetSymbol: string, secondApprovalFromMinor: bigint | null): Promise<ApprovalPolicy> {
    return (
      await this.t.request<ApprovalPolicy>(
        { method: 'PUT', path: `/policies/approvals/${enc(assetSymbol)}`, body: { secondApprovalFromMinor } },
        { resendWhenUnknown: true },
      )
    ).value.data;
  }

  /** The rules in force. */
  async rules(): Promise<PublishedRules> {
    return (await this.t.get<PublishedRules>('/policies/rules')).data;
  }

  /** Drafts not yet published, newest first. */
  async drafts(): Promise<RulesDraft[]> {
    return (await this.t.get<RulesDraft[]>('/policies/drafts')).data;
  }

  /** Writes a draft (admin); nothing changes until another admin publishes it. */
  async draft(rules: OperatorRuleInput[]): Promise<RulesDraft> {
    return (await this.t.write<RulesDraft>({ method: 'PUT', path: '/policies/rules', body: { rules } })).data;
  }

  /** Another admin publishes a draft: its rules are in force at once. */
  async publish(id: string): Promise<RulesDraft> {
    return (await this.t.write<RulesDraft>({ method: 'POST', path: `/policies/drafts/${enc(id)}/publish` }, {}, true)).data;
  }

  /** Adjustments and attributions under a rule of two or more approvals, newest first. */
  async requests(state?: StaffRequest['state']): Promise<StaffRequest[]> {
    return (await this.t.get<StaffRequest[]>('/requests', state ? { state } : undefined)).data;
  }

  /** One approval; the one that meets the rule applies the request. */
  async approveRequest(id: string, opts: { idempotencyKey?: string } = {}): Promise<StaffRequest> {
    return (await this.t.write<StaffRequest>({ method: 'POST', path: `/requests/${enc(id)}/approve` }, opts, true)).data;
  }

  /** Ends a waiting request: nothing applied. */
  async rejectRequest(id: string, reason: string | null, opts: { idempotencyKey?: string } = {}): Promise<StaffRequest> {
    return (
      await this.t.write<StaffRequest>({ method: 'POST', path: `/requests/${enc(id)}/reject`, body: reason ? { reason } : {} }, opts, true)
    ).data;
  }
}
