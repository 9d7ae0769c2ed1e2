import { ApprovalPolicyRecord, OperatorPolicy, OperatorPolicyDraft, PutApprovalPolicy, PutOperatorRules } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { toMinor } from '../../domain/money.ts';
import { ok } from '../../http/envelope.ts';
import { listResponses, responses } from '../../http/schemas.ts';
import { putApprovalPolicy } from '../../usecases/approvals/put-policy.ts';
import { checkOperatorRules } from '../../domain/approvals/operator-rules.ts';
import { approverOf } from '../../http/plugins/operator-auth.ts';
import { publishPolicyDraft } from '../../usecases/operator-policy/publish-draft.ts';
import { putPolicyDraft } from '../../usecases/operator-policy/put-draft.ts';
import { ruleAudit as ruleWire } from '../../usecases/operator-policy/rule-audit.ts';
import type { PolicyDraft } from '../../usecases/repositories.ts';

const sec = [{ operator: [] }];
const wire = (p: { assetSymbol: string; secondApprovalFrom: bigint | null }) => ({
  assetSymbol: p.assetSymbol,
  secondApprovalFromMinor: p.secondApprovalFrom?.toString() ?? null,
});

const draftWire = (d: PolicyDraft) => ({
  id: d.id,
  rules: d.rules.map(ruleWire),
  author: d.author,
  state: d.state,
  publishedBy: d.publishedBy,
  createdAt: d.createdAt.toISOString(),
});

/**
 * The operator's policy (docs/controls.md): ordered rules in force, drafts an admin writes and another
 * publishes; and the four-eyes threshold per asset, the shorthand for the rule
 * `{action, assetSymbol, fromAmountMinor, approvals: 2}` of orders and withdrawals.
 */
export const policyRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['operator: policies'];
    app.put(
      '/policies/approvals/:asset',
      {
        schema: {
          tags,
          security: sec,
          params: Type.Object({ asset: Type.String({ pattern: '^[A-Z0-9]{2,12}$' }) }),
          body: PutApprovalPolicy,
          response: responses(200, ApprovalPolicyRecord),
          summary:
            'An order whose base amount, or a withdrawal whose amount, is at or above secondApprovalFromMinor needs two different staff persons; null removes the policy',
        },
      },
      async (req) => {
        const raw = req.body.secondApprovalFromMinor;
        const from = raw === null ? null : toMinor(raw);
        if (from === null && raw !== null) throw new DomainError('request.invalid_amount', { field: 'secondApprovalFromMinor' });
        return ok(req.id, wire(await putApprovalPolicy(deps, req.operatorActor!, req.params.asset, from)));
      },
    );

    app.get(
      '/policies/approvals',
      { schema: { tags, security: sec, response: listResponses(ApprovalPolicyRecord), summary: 'Every four-eyes policy, by asset' } },
      async (req) => ok(req.id, (await deps.store.approvals.listPolicies()).map(wire)),
    );

    app.get(
      '/policies/rules',
      {
        schema: {
          tags,
          security: sec,
          response: responses(200, OperatorPolicy),
          summary: 'The published rules: ordered, the first that matches decides how many staff persons approve',
        },
      },
      async (req) => {
        const p = await deps.store.operatorPolicy.published();
        return ok(req.id, {
          rules: p.rules.map(ruleWire),
          draftId: p.draftId,
          publishedAt: p.publishedAt?.toISOString() ?? null,
          publishedBy: p.publishedBy,
        });
      },
    );

    app.put(
      '/policies/rules',
      {
        schema: {
          tags,
          security: sec,
          body: PutOperatorRules,
          response: responses(201, OperatorPolicyDraft),
          summary:
            'Writes a draft of the rules; another admin publishes it. 422 policies.unknown_action, policies.approvals_out_of_range, policies.unknown_role, policies.rule_never_matches',
        },
      },
      async (req, reply) => {
        const rules = checkOperatorRules(req.body.rules);
        return reply.code(201).send(ok(req.id, draftWire(await putPolicyDraft(deps, approverOf(req), rules))));
      },
    );

    app.get(
      '/policies/drafts',
      { schema: { tags, security: sec, response: listResponses(OperatorPolicyDraft), summary: 'Drafts not yet published, newest first' } },
      async (req) => ok(req.id, (await deps.store.operatorPolicy.openDrafts()).map(draftWire)),
    );

    app.get(
      '/policies/drafts/:id',
      {
        schema: {
          tags,
          security: sec,
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
          response: responses(200, OperatorPolicyDraft),
          summary: 'One draft, whatever its state',
        },
      },
      async (req) => {
        const d = await deps.store.operatorPolicy.draft(req.params.id);
        if (!d) throw new DomainError('policies.draft_not_found');
        return ok(req.id, draftWire(d));
      },
    );

    app.post(
      '/policies/drafts/:id/publish',
      {
        schema: {
          tags,
          security: sec,
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
          response: responses(200, OperatorPolicyDraft),
          summary:
            'Another admin publishes a draft: its rules are in force at once, other drafts superseded. 409 policies.own_draft, policies.draft_not_open; 403 policies.publish_needs_person',
        },
      },
      async (req) => ok(req.id, draftWire(await publishPolicyDraft(deps, approverOf(req), req.params.id))),
    );
  };
