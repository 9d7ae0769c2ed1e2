import type { Approver } from '../../domain/approvals/four-eyes.ts';
import { checkPublisher } from '../../domain/approvals/operator-rules.ts';
import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';
import type { PolicyDraft } from '../repositories.ts';
import { ruleAudit } from './rule-audit.ts';

/**
 * Another admin publishes a draft (docs/controls.md): its rules are in force from this transaction on,
 * every other open draft is superseded. The published rules' row is locked first, so two publications
 * happen one after the other and the second finds its draft superseded. Audited.
 */
export async function publishPolicyDraft(d: UseCaseDeps, by: Approver, id: string): Promise<PolicyDraft> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    const before = await d.store.operatorPolicy.lockPublished(tx);
    const draft = await d.store.operatorPolicy.lockDraft(tx, id);
    if (!draft) throw new DomainError('policies.draft_not_found');
    checkPublisher({ author: draft.author.actor, state: draft.state }, { actor: by.actor, isPerson: by.person !== null });
    const publisher = { actor: by.actor, name: by.person!.name };
    await d.store.operatorPolicy.publish(tx, draft, publisher, at);
    await d.store.audit.record(tx, d.ids, at, {
      actor: by.actor,
      action: 'policy.publish',
      subjectType: 'operator_policy',
      subjectId: id,
      before: { rules: before.map(ruleAudit) },
      after: { rules: draft.rules.map(ruleAudit), author: draft.author.actor },
    });
    return { ...draft, state: 'published' as const, publishedBy: publisher, updatedAt: at };
  });
}
