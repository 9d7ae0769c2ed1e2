import {
  ApprovalOutcome,
  ApprovalParams,
  ApprovalsQuery,
  PendingPolicyChange,
  Policy,
  PutPolicy,
  RejectApproval,
  WaitingApproval,
} from '@cambio/contract';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../deps.ts';
import type { PolicyRule } from '../domain/policy/rules.ts';
import { checkRules } from '../domain/policy/rules.ts';
import { ok } from '../http/envelope.ts';
import { listResponses, responses } from '../http/schemas.ts';
import { approvalsWire } from '../http/wire/organization-approvals.ts';
import { approveRequest, rejectRequest, type ApprovalOutcome as Outcome } from '../usecases/controls/decide-approval.ts';
import { putPolicy } from '../usecases/controls/put-policy.ts';
import { memberOf } from './member-of.ts';

const ruleWire = (r: PolicyRule) => ({
  action: r.action,
  assetSymbol: r.assetSymbol,
  fromAmountMinor: r.fromAmount === null ? null : r.fromAmount.toString(),
  approvals: r.approvals,
});
const outcomeWire = (o: Outcome) => ({ kind: o.kind, id: o.id, state: o.state, approvals: approvalsWire(o.approvals) });

/**
 * The organization's own controls (docs/controls.md): its policy, read by every member and changed by
 * `portal:policy`; what waits for its members, approved or rejected by `portal:approve`.
 */
export const controlsRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store } = deps;
    const security = [{ memberSession: [] }];
    const tags = ['portal: controls'];
    const policyOf = async (organizationId: string) => {
      const p = await store.controls.policyOf(organizationId);
      return { rules: p.rules.map(ruleWire), updatedAt: p.updatedAt?.toISOString() ?? null, updatedBy: p.updatedBy };
    };

    app.get(
      '/policy',
      {
        config: { portal: ['portal:read', 'portal:policy'] },
        schema: {
          tags,
          security,
          response: responses(200, Policy),
          summary: "The organization's rules: ordered, the first that matches decides",
        },
      },
      async (req) => ok(req.id, await policyOf(memberOf(req).organization.id)),
    );

    app.put(
      '/policy',
      {
        config: { portal: ['portal:policy'] },
        schema: {
          tags,
          security,
          body: PutPolicy,
          response: { ...responses(200, Policy), 202: responses(200, PendingPolicyChange)[200] },
          summary:
            'Replaces the rules; 202 with a pending change when the rules in force ask members to approve policy changes. 422 policy.unknown_action, policy.approvals_out_of_range, policy.rule_never_matches, policy.field_not_applicable',
        },
      },
      async (req, reply) => {
        const me = memberOf(req);
        const rules = checkRules(req.body.rules);
        const change = await putPolicy(deps, { id: me.member.id, organizationId: me.organization.id }, rules);
        if (!change.applied) return reply.code(202).send(ok(req.id, { id: change.id, state: 'pending_approval' as const }));
        return ok(req.id, await policyOf(me.organization.id));
      },
    );

    app.get(
      '/approvals',
      {
        config: { portal: ['portal:read', 'portal:approve'] },
        schema: {
          tags,
          security,
          querystring: ApprovalsQuery,
          response: listResponses(WaitingApproval),
          summary: "What waits for the organization's members' approvals, oldest first",
        },
      },
      async (req) => {
        const all = await store.controls.waiting(memberOf(req).organization.id);
        return ok(
          req.id,
          all.map((w) => ({
            kind: w.approvals.kind,
            id: w.approvals.requestId,
            money: w.money && {
              assetSymbol: w.money.assetSymbol,
              assetDecimals: w.money.assetDecimals,
              amountMinor: w.money.amount.toString(),
            },
            summary: w.summary,
            requestedBy: { id: w.approvals.initiatorMemberId, name: w.initiatorName },
            approvals: approvalsWire(w.approvals),
            createdAt: w.createdAt.toISOString(),
          })),
        );
      },
    );

    const approver = (req: Parameters<typeof memberOf>[0]) => {
      const me = memberOf(req);
      return { id: me.member.id, name: me.member.name, organizationId: me.organization.id };
    };

    app.post(
      '/approvals/:kind/:id/approve',
      {
        config: { portal: ['portal:approve'] },
        schema: {
          tags,
          security,
          params: ApprovalParams,
          response: responses(200, ApprovalOutcome),
          summary:
            'Approves a request that waits for the organization; 409 approvals.own_request for its initiator, approvals.already_given for a second approval by one member',
        },
      },
      async (req) => ok(req.id, outcomeWire(await approveRequest(deps, approver(req), req.params.kind, req.params.id))),
    );

    app.post(
      '/approvals/:kind/:id/reject',
      {
        config: { portal: ['portal:approve'] },
        schema: {
          tags,
          security,
          params: ApprovalParams,
          body: Type.Optional(RejectApproval),
          response: responses(200, ApprovalOutcome),
          summary: 'Rejects a request that waits for the organization: it ends rejected, its hold released, the reason kept',
        },
      },
      async (req) =>
        ok(req.id, outcomeWire(await rejectRequest(deps, approver(req), req.params.kind, req.params.id, req.body?.reason ?? null))),
    );
  };
