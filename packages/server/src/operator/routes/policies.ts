import { ApprovalPolicyRecord, PutApprovalPolicy } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { toMinor } from '../../domain/money.ts';
import { ok } from '../../http/envelope.ts';
import { listResponses, responses } from '../../http/schemas.ts';
import { putApprovalPolicy } from '../../usecases/approvals/put-policy.ts';

const sec = [{ operator: [] }];
const wire = (p: { assetSymbol: string; secondApprovalFrom: bigint | null }) => ({
  assetSymbol: p.assetSymbol,
  secondApprovalFromMinor: p.secondApprovalFrom?.toString() ?? null,
});

/** Four-eyes policies (docs/design/people-and-apps.md): per asset, the amount from which two different persons must approve. */
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
  };
