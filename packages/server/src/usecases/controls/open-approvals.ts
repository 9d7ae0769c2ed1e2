import type { ApprovalKind, PolicyAction } from '@cambio/contract';
import type { OrganizationApprovals } from '../../domain/policy/approvals.ts';
import { requiredApprovals } from '../../domain/policy/rules.ts';
import type { Tx, UseCaseDeps } from '../ports.ts';

export interface GuardedRequest {
  kind: ApprovalKind;
  action: PolicyAction;
  requestId: string;
  organizationId: string;
  /** The member who made it, or who issued the API key that did; '' when no member made it. */
  initiatorMemberId: string;
  assetSymbol?: string;
  amount?: bigint;
}

/**
 * In the transaction that creates a request: when the organization's policy asks its members to approve
 * it (docs/controls.md), it starts waiting for them, and `approval.requested` tells the approvers (the
 * mail notifier reads it). Null, and nothing written, when no rule asks: everything goes on as without
 * a policy.
 */
export async function openApprovals(d: UseCaseDeps, tx: Tx, at: Date, r: GuardedRequest): Promise<OrganizationApprovals | null> {
  const rules = await d.store.controls.rulesIn(tx, r.organizationId);
  const required = requiredApprovals(rules, {
    action: r.action,
    ...(r.assetSymbol !== undefined ? { assetSymbol: r.assetSymbol } : {}),
    ...(r.amount !== undefined ? { amount: r.amount } : {}),
  });
  if (required === 0) return null;
  const a: OrganizationApprovals = {
    kind: r.kind,
    requestId: r.requestId,
    organizationId: r.organizationId,
    initiatorMemberId: r.initiatorMemberId,
    required,
    given: [],
    waitingFor: 'organization',
  };
  await d.store.controls.open(tx, a, at);
  await d.store.controls.emit(
    tx,
    {
      organizationId: r.organizationId,
      type: 'approval.requested',
      subjectId: r.requestId,
      data: {
        kind: r.kind,
        id: r.requestId,
        requestedBy: r.initiatorMemberId,
        required,
        ...(r.assetSymbol !== undefined ? { assetSymbol: r.assetSymbol } : {}),
        ...(r.amount !== undefined ? { amountMinor: r.amount.toString() } : {}),
      },
    },
    at,
  );
  return a;
}
