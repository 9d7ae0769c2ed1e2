import type {
  ApprovalKind,
  ApprovalOutcome,
  OrganizationAuditEntry,
  PendingPolicyChange,
  Policy,
  PolicyRule,
  WaitingApproval,
} from '@cambio/contract';
import type { WriteOptions } from '../action-key.ts';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import type { ListParams, Page } from '../paginate.ts';
import { listPage } from '../resources/list.ts';

/** A rule as read: `fromAmountMinor` an exact bigint (null: any amount). */
export type PortalPolicyRule = Amounts<PolicyRule>;
export type PortalPolicy = Amounts<Policy>;
/** A rule as sent: `assetSymbol` and `fromAmountMinor` may be left out (any asset, any amount). */
export interface PortalPolicyRuleInput {
  action: PolicyRule['action'];
  assetSymbol?: string | null;
  fromAmountMinor?: bigint | string | null;
  approvals: number;
}
/** What `policy.put` did: applied at once, or waiting for members to approve the change (202). */
export type PolicyPutResult = ({ applied: true } & PortalPolicy) | ({ applied: false } & PendingPolicyChange);
export type PortalWaitingApproval = Amounts<WaitingApproval>;
export type PortalApprovalOutcome = ApprovalOutcome;

const enc = encodeURIComponent;

/** The organization's approval rules (docs/controls.md): read by every member, replaced with `portal:policy`. */
export class PortalPolicyResource {
  constructor(private readonly t: Transport) {}

  /** `GET /portal/v1/policy`: the rules in order, the first that matches decides. */
  async get(): Promise<PortalPolicy> {
    return (await this.t.get<PortalPolicy>('/policy')).data;
  }

  /**
   * `PUT /portal/v1/policy` (`portal:policy`): replaces every rule. When the rules in force ask members to
   * approve policy changes the answer is a pending change (`applied: false`) that applies once they have.
   */
  async put(rules: PortalPolicyRuleInput[], opts: WriteOptions = {}): Promise<PolicyPutResult> {
    const r = await this.t.write<PortalPolicy | PendingPolicyChange>({ method: 'PUT', path: '/policy', body: { rules } }, opts);
    return r.status === 202 ? { applied: false, ...(r.data as PendingPolicyChange) } : { applied: true, ...(r.data as PortalPolicy) };
  }
}

/** What waits for the organization's members, and their decisions (`portal:approve`; docs/controls.md). */
export class PortalApprovalsResource {
  constructor(private readonly t: Transport) {}

  /** `GET /portal/v1/approvals?state=waiting`: oldest first, with the amount, who asked and who approved. */
  async list(p: { state?: 'waiting' } = {}): Promise<PortalWaitingApproval[]> {
    return (await this.t.get<PortalWaitingApproval[]>('/approvals', { state: p.state ?? 'waiting' })).data;
  }

  /** `POST /portal/v1/approvals/:kind/:id/approve`: 409 approvals.own_request for the initiator, approvals.already_given the second time. */
  async approve(kind: ApprovalKind, id: string, opts: WriteOptions = {}): Promise<PortalApprovalOutcome> {
    return (await this.t.write<PortalApprovalOutcome>({ method: 'POST', path: `/approvals/${enc(kind)}/${enc(id)}/approve` }, opts, true))
      .data;
  }

  /** `POST /portal/v1/approvals/:kind/:id/reject`: the request ends rejected, its hold released, the reason kept. */
  async reject(kind: ApprovalKind, id: string, p: { reason?: string } = {}, opts: WriteOptions = {}): Promise<PortalApprovalOutcome> {
    return (
      await this.t.write<PortalApprovalOutcome>(
        { method: 'POST', path: `/approvals/${enc(kind)}/${enc(id)}/reject`, body: p.reason ? { reason: p.reason } : {} },
        opts,
        true,
      )
    ).data;
  }
}

export type PortalAuditEntry = OrganizationAuditEntry;

/** The organization's own audit trail (`portal:audit`): who, what, when, before and after; newest first. */
export class PortalAuditResource {
  constructor(private readonly t: Transport) {}

  /** `GET /portal/v1/audit?page=&limit=`. */
  async list(params: ListParams = {}): Promise<Page<PortalAuditEntry>> {
    return listPage<PortalAuditEntry>(this.t, '/audit', params);
  }
}
