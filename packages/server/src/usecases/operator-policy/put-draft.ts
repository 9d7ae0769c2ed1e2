import type { Approver } from '../../domain/approvals/four-eyes.ts';
import type { OperatorRule } from '../../domain/approvals/operator-rules.ts';
import type { UseCaseDeps } from '../ports.ts';
import type { PolicyDraft } from '../repositories.ts';
import { ruleAudit } from './rule-audit.ts';

/** An admin writes a draft of the operator's rules (docs/controls.md); nothing applies until another admin publishes it. Audited. */
export async function putPolicyDraft(d: UseCaseDeps, by: Approver, rules: OperatorRule[]): Promise<PolicyDraft> {
  const at = d.clock.now();
  const id = d.ids.next('pdr');
  const author = { actor: by.actor, name: by.person?.name ?? 'bootstrap' };
  await d.store.uow.run(async (tx) => {
    const current = await d.store.approvals.operatorRulesIn(tx);
    await d.store.operatorPolicy.insertDraft(tx, { id, rules, author }, at);
    await d.store.audit.record(tx, d.ids, at, {
      actor: by.actor,
      action: 'policy.draft',
      subjectType: 'operator_policy',
      subjectId: id,
      before: { rules: current.map(ruleAudit) },
      after: { rules: rules.map(ruleAudit), state: 'draft' },
    });
  });
  return { id, rules, author, state: 'draft', publishedBy: null, createdAt: at, updatedAt: at };
}
