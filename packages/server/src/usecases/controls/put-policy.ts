import { requiredApprovals, type PolicyRule } from '../../domain/policy/rules.ts';
import type { UseCaseDeps } from '../ports.ts';
import { openApprovals } from './open-approvals.ts';

export type PolicyChange = { applied: true } | { applied: false; id: string };

const ruleView = (r: PolicyRule) => ({
  action: r.action,
  assetSymbol: r.assetSymbol,
  fromAmountMinor: r.fromAmount === null ? null : r.fromAmount.toString(),
  approvals: r.approvals,
});

/**
 * A member replaces the organization's rules (docs/controls.md). When the rules in force ask members to
 * approve a `policy` change, the change waits for them (applied by the approval that meets the quorum);
 * otherwise it applies at once. Either way the audit trail keeps the rules before and after.
 */
export async function putPolicy(d: UseCaseDeps, m: { id: string; organizationId: string }, rules: PolicyRule[]): Promise<PolicyChange> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    const current = await d.store.controls.rulesIn(tx, m.organizationId);
    if (requiredApprovals(current, { action: 'policy' }) > 0) {
      const id = d.ids.next('pol');
      await d.store.controls.insertPolicyChange(tx, { id, organizationId: m.organizationId, rules, createdBy: m.id }, at);
      await openApprovals(d, tx, at, {
        kind: 'policy',
        action: 'policy',
        requestId: id,
        organizationId: m.organizationId,
        initiatorMemberId: m.id,
      });
      await d.store.audit.record(tx, d.ids, at, {
        actor: `member:${m.id}`,
        action: 'policy.change_requested',
        subjectType: 'policy',
        subjectId: id,
        before: { rules: current.map(ruleView) },
        after: { rules: rules.map(ruleView), state: 'pending_approval' },
      });
      return { applied: false, id };
    }
    await d.store.controls.putPolicy(tx, m.organizationId, rules, at, m.id);
    await d.store.audit.record(tx, d.ids, at, {
      actor: `member:${m.id}`,
      action: 'policy.update',
      subjectType: 'policy',
      subjectId: m.organizationId,
      before: { rules: current.map(ruleView) },
      after: { rules: rules.map(ruleView) },
    });
    return { applied: true };
  });
}
