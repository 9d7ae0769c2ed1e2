import type { ApprovalKind } from '@cambio/contract';
import { DomainError } from '../../domain/errors.ts';
import { checkRejection, withApproval, type OrganizationApprovals } from '../../domain/policy/approvals.ts';
import { releaseOrder } from '../orders/decide-order.ts';
import type { Tx, UseCaseDeps } from '../ports.ts';
import { releaseWithdrawal } from '../withdrawals/decide-withdrawal.ts';

export interface ApprovingMember {
  id: string;
  name: string;
  organizationId: string;
}

export interface ApprovalOutcome {
  kind: ApprovalKind;
  id: string;
  state: string;
  approvals: OrganizationApprovals;
}

const SUBJECT: Record<ApprovalKind, string> = { orders: 'order', withdrawals: 'withdrawal', destinations: 'destination', policy: 'policy' };

/**
 * Locks the request itself first, as the operator's decision does, so a member's approval, a rejection,
 * a cancellation and the operator's decision of one request happen one at a time (docs/controls.md); then
 * its approvals. Another organization's request, or one no rule matched, is not found; one that no
 * longer waits (decided, cancelled) is `approvals.not_waiting`.
 */
async function lockWaiting(d: UseCaseDeps, tx: Tx, kind: ApprovalKind, id: string, organizationId: string): Promise<OrganizationApprovals> {
  const state = await lockRequest(d, tx, kind, id);
  const a = await d.store.controls.lock(tx, kind, id);
  if (!a || a.organizationId !== organizationId || state === null) throw new DomainError('approvals.not_found');
  if (state !== 'pending_approval') throw new DomainError('approvals.not_waiting', { state });
  return a;
}

/** The request's state, its row locked until `tx` ends; null when there is none. */
async function lockRequest(d: UseCaseDeps, tx: Tx, kind: ApprovalKind, id: string): Promise<string | null> {
  switch (kind) {
    case 'withdrawals': {
      if (await d.store.withdrawals.lockPending(tx, id)) return 'pending_approval';
      return d.store.withdrawals.stateIn(tx, id);
    }
    case 'orders': {
      try {
        await d.store.orders.lockPending(tx, id);
        return 'pending_approval';
      } catch (e) {
        if (e instanceof DomainError && e.code === 'orders.already_decided') return e.params.state ?? 'decided';
        if (e instanceof DomainError && e.code === 'orders.not_found') return null;
        throw e;
      }
    }
    case 'policy':
      return (await d.store.controls.lockPolicyChange(tx, id))?.state ?? null;
    case 'destinations':
      return d.store.destinations.lockState(tx, id);
  }
}

/**
 * One member approves a request that waits for the organization: once per member, never the initiator.
 * The approval that meets the quorum hands the request to the operator (an order, a withdrawal) or
 * applies it (a policy change). An event and an audit entry per approval.
 */
export async function approveRequest(d: UseCaseDeps, m: ApprovingMember, kind: ApprovalKind, id: string): Promise<ApprovalOutcome> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    const before = await lockWaiting(d, tx, kind, id, m.organizationId);
    const after = withApproval(before, m, at);
    await d.store.controls.save(tx, after, at);
    let state = 'pending_approval';
    if (kind === 'policy' && after.waitingFor === 'operator') {
      // A policy change needs no operator: the quorum applies it.
      const change = (await d.store.controls.lockPolicyChange(tx, id))!;
      await d.store.controls.putPolicy(tx, m.organizationId, change.rules, at, change.createdBy);
      await d.store.controls.endPolicyChange(tx, id, 'applied', at);
      state = 'applied';
    } else if (kind === 'destinations' && after.waitingFor === 'operator') {
      // A destination needs no operator decision: the quorum makes it active, its cooldown starting now.
      await d.store.destinations.activate(tx, id, at);
      state = 'active';
    }
    await record(d, tx, at, m, 'approval.given', kind, id, before, after, { state });
    return { kind, id, state, approvals: after };
  });
}

/** One member rejects a request that waits for the organization: it ends (`rejected`, its hold released once, the reason kept). */
export async function rejectRequest(
  d: UseCaseDeps,
  m: ApprovingMember,
  kind: ApprovalKind,
  id: string,
  reason: string | null,
): Promise<ApprovalOutcome> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    const a = await lockWaiting(d, tx, kind, id, m.organizationId);
    checkRejection(a, m.id);
    const actor = `member:${m.id}`;
    if (kind === 'withdrawals') await releaseWithdrawal(d, tx, actor, id, 'rejected', reason);
    else if (kind === 'orders') await releaseOrder(d, tx, actor, id, reason);
    else if (kind === 'policy') await d.store.controls.endPolicyChange(tx, id, 'rejected', at);
    else await d.store.destinations.reject(tx, id, at);
    await d.store.controls.recordRejection(tx, kind, id, m.id, reason, at);
    await record(d, tx, at, m, 'approval.rejected', kind, id, a, a, { state: 'rejected', reason });
    return { kind, id, state: 'rejected', approvals: a };
  });
}

async function record(
  d: UseCaseDeps,
  tx: Tx,
  at: Date,
  m: ApprovingMember,
  type: 'approval.given' | 'approval.rejected',
  kind: ApprovalKind,
  id: string,
  before: OrganizationApprovals,
  after: OrganizationApprovals,
  extra: { state: string; reason?: string | null },
): Promise<void> {
  const view = (a: OrganizationApprovals) => ({
    required: a.required,
    given: a.given.map((g) => ({ memberId: g.memberId, name: g.name, at: g.at.toISOString() })),
    waitingFor: a.waitingFor,
  });
  await d.store.audit.record(tx, d.ids, at, {
    actor: `member:${m.id}`,
    action: type,
    subjectType: SUBJECT[kind],
    subjectId: id,
    before: { approvals: view(before) },
    after: { approvals: view(after), ...extra },
  });
  await d.store.controls.emit(
    tx,
    {
      organizationId: m.organizationId,
      type,
      subjectId: id,
      data: { kind, id, member: { id: m.id, name: m.name }, approvals: view(after), ...extra },
    },
    at,
  );
}
