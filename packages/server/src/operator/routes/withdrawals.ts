import { DecideWithdrawal, OperatorWithdrawal, ListQuery, WithdrawalState } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../app.ts';
import { ok } from '../../http/envelope.ts';
import { pageParams } from '../../http/page-params.ts';
import { withdrawalWire } from '../../http/routes/withdrawals.ts';
import { listResponses, responses } from '../../http/schemas.ts';
import type { WithdrawalRow } from '../../store/withdrawals-store.ts';

const sec = [{ operator: [] }];
const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const wire = (w: WithdrawalRow) => ({ ...withdrawalWire(w), organizationId: w.organizationId });

/** Withdrawal requests across organizations and the one decision each gets (CONTRACT §3). */
export const operatorWithdrawalRoutes = ({ store }: AppDeps): FastifyPluginAsyncTypebox => async (app) => {
  const tags = ['operator: withdrawals'];
  // The body of a decision is optional: a bare POST is a decision without a reason.
  const optionalBody = async (req: { body: unknown }) => { req.body ??= {}; };

  app.get('/withdrawals', {
    schema: { tags, security: sec, querystring: ListQuery({ state: Type.Optional(WithdrawalState) }), response: listResponses(OperatorWithdrawal) },
  }, async (req) => {
    const page = await store.withdrawals.list(pageParams(req.query), req.query.state ? { state: req.query.state } : {});
    return ok(req.id, page.items.map(wire), page.pagination);
  });

  app.post('/withdrawals/:id/approve', {
    preValidation: optionalBody,
    schema: { tags, security: sec, params: IdParam, body: DecideWithdrawal, response: responses(200, OperatorWithdrawal), summary: 'The amount leaves (hold consumed): completed. Once; a second decision is 409' },
  }, async (req) => ok(req.id, wire(await store.withdrawals.approve(req.operatorActor!, req.params.id, req.body.reason ?? null))));

  app.post('/withdrawals/:id/reject', {
    preValidation: optionalBody,
    schema: { tags, security: sec, params: IdParam, body: DecideWithdrawal, response: responses(200, OperatorWithdrawal), summary: 'The hold is released. Once; a second decision is 409' },
  }, async (req) => ok(req.id, wire(await store.withdrawals.reject(req.operatorActor!, req.params.id, req.body.reason ?? null))));
};
