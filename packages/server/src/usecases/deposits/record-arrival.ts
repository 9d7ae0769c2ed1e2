import { DomainError } from '../../domain/errors.ts';
import type { Approver } from '../../domain/approvals/four-eyes.ts';
import type { StaffRequest } from '../../domain/approvals/staff-request.ts';
import { guardStaffAction } from '../operator-policy/guard-staff-action.ts';
import type { Tx, UseCaseDeps } from '../ports.ts';
import type { Deposit } from '../repositories.ts';

const depositAudit = (d: Deposit) => ({
  state: d.state,
  organizationId: d.organizationId,
  declarationId: d.declarationId,
  assetSymbol: d.assetSymbol,
  amountMinor: d.amount.toString(),
  network: d.network,
  txid: d.txid,
});

/**
 * Money arrived at the platform's wallet (docs/operator-guide.md): recorded once per txid, credited when it
 * matches an open declaration exactly (its amount, and its reference when the desk gives one), else unattributed; the venue's books follow in the same
 * transaction (the money is now at the platform's account).
 */
export async function recordArrival(
  d: UseCaseDeps,
  actor: string,
  r: { assetSymbol: string; network: string; amount: bigint; txid: string; unmatchable?: boolean; reference?: string },
): Promise<Deposit> {
  const at = d.clock.now();
  const id = d.ids.next('dep');
  return d.store.uow.run(async (tx) => {
    const dep = await d.store.deposits.recordArrival(tx, id, at, r);
    await d.venue.fundsMoved(tx, r.assetSymbol, r.amount);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'deposit.arrival',
      subjectType: 'deposit',
      subjectId: id,
      before: null,
      after: { ...depositAudit(dep), ...(r.reference ? { reference: r.reference } : {}) },
    });
    return dep;
  });
}

/**
 * A person credits an unattributed arrival to an organization, once. When a rule of the operator's policy
 * asks two or more staff persons to approve it (docs/controls.md), it waits as a request instead, and is
 * credited at the approval that meets the rule.
 */
export async function attributeArrival(
  d: UseCaseDeps,
  by: Approver,
  id: string,
  organizationId: string,
): Promise<{ applied: Deposit } | { request: StaffRequest }> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    const dep = await d.store.deposits.unattributedIn(tx, id);
    if (!(await d.store.organizations.existsIn(tx, organizationId))) throw new DomainError('organizations.not_found');
    const request = await guardStaffAction(d, tx, at, by, {
      kind: 'attribution',
      organizationId,
      assetSymbol: dep.assetSymbol,
      amount: dep.amount,
      subjectId: id,
      note: '',
    });
    if (request) return { request };
    return { applied: await applyAttribution(d, tx, at, by.actor, id, organizationId) };
  });
}

/** Credits the arrival in `tx` and writes its audit entry. */
export async function applyAttribution(
  d: UseCaseDeps,
  tx: Tx,
  at: Date,
  actor: string,
  id: string,
  organizationId: string,
): Promise<Deposit> {
  const dep = await d.store.deposits.attribute(tx, id, at, organizationId);
  await d.store.audit.record(tx, d.ids, at, {
    actor,
    action: 'deposit.attribute',
    subjectType: 'deposit',
    subjectId: id,
    before: depositAudit({ ...dep, state: 'unattributed', organizationId: null }),
    after: depositAudit(dep),
  });
  return dep;
}
