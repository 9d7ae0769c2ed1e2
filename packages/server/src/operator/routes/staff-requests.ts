import { RejectStaffRequest, StaffRequestRecord, StaffRequestsQuery } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { ok } from '../../http/envelope.ts';
import { approverOf } from '../../http/plugins/operator-auth.ts';
import { IdParam, listResponses, responses } from '../../http/schemas.ts';
import { approveStaffRequestNow, rejectStaffRequest } from '../../usecases/operator-policy/decide-request.ts';
import { decimalsOf, staffRequestWire } from '../../http/wire/staff-requests.ts';

const sec = [{ operator: [] }];

/**
 * Adjustments and attributions that wait for staff approvals under the operator's policy
 * (docs/controls.md): listed for every role, approved or rejected by an approver or admin.
 */
export const staffRequestRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['operator: policies'];
    app.get(
      '/requests',
      {
        schema: {
          tags,
          security: sec,
          querystring: StaffRequestsQuery,
          response: listResponses(StaffRequestRecord),
          summary:
            'Adjustments and attributions under a rule of two or more approvals, newest first; ?state=pending_approval for the queue',
        },
      },
      async (req) => {
        const dec = await decimalsOf(deps);
        return ok(
          req.id,
          (await deps.store.staffRequests.list(req.query.state)).map((r) => staffRequestWire(r, dec(r.assetSymbol))),
        );
      },
    );
    app.get(
      '/requests/:id',
      { schema: { tags, security: sec, params: IdParam, response: responses(200, StaffRequestRecord), summary: 'One staff request' } },
      async (req) => {
        const r = await deps.store.staffRequests.get(req.params.id);
        if (!r) throw new DomainError('requests.not_found');
        return ok(req.id, staffRequestWire(r, (await decimalsOf(deps))(r.assetSymbol)));
      },
    );
    app.post(
      '/requests/:id/approve',
      {
        schema: {
          tags,
          security: sec,
          params: IdParam,
          response: responses(200, StaffRequestRecord),
          summary:
            'One approval; the one that meets the rule applies it. 409 requests.already_approved_by_you, requests.not_waiting; 403 requests.approval_needs_person, policies.role_not_counted',
        },
      },
      async (req) => {
        const r = await approveStaffRequestNow(deps, approverOf(req), req.params.id);
        return ok(req.id, staffRequestWire(r, (await decimalsOf(deps))(r.assetSymbol)));
      },
    );
    app.post(
      '/requests/:id/reject',
      {
        schema: {
          tags,
          security: sec,
          params: IdParam,
          body: Type.Optional(RejectStaffRequest),
          response: responses(200, StaffRequestRecord),
          summary: 'Ends a waiting request: nothing applied, the reason kept',
        },
      },
      async (req) => {
        const r = await rejectStaffRequest(deps, approverOf(req), req.params.id, req.body?.reason ?? null);
        return ok(req.id, staffRequestWire(r, (await decimalsOf(deps))(r.assetSymbol)));
      },
    );
  };
