import { DecideWithdrawal, OperatorWithdrawal, ListQuery, WithdrawalState } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../app.ts';
import { ok } from '../../http/envelope.ts';
import { approverOf } from '../../http/plugins/operator-auth.ts';
import { withdrawalApprovals, type ApprovalsWire } from '../approvals-view.ts';
import { pageParams } from '../../http/page-params.ts';
import { withdrawalWire } from '../../http/routes/withdrawals.ts';
import { listResponses, responses } from '../../http/schemas.ts';
import type { WithdrawalRow } from '../../store/withdrawals-store.ts';

const sec = [{ operator: [] }];
const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const wire = (w: WithdrawalRow, a: ApprovalsWire) => ({ ...withdrawalWire(w), organizationId: w.organizationId, ...a });

/** Withdrawal requests across organizations and the one decision each gets (CONTRACT §3). */
export const operatorWithdrawalRoutes = ({ store }: AppDeps): FastifyPluginAsyncTypebox => async (app) => {
  const tags = ['operator: withdrawals'];
  // The body of a decision is optional: a bare POST is a decision without a reason.
  const optionalBody = async (req: { body: unknown }) => { req.body ??= {}; };
  const one = async (w: WithdrawalRow, reqId: string) => ok(reqId, wire(w, (await withdrawalApprovals(store, [w]))[0]!));

  app.get('/withdrawals', {
    schema: { tags, security: sec, querystring: ListQuery({ state: Type.Optional(WithdrawalState) }), response: listResponses(OperatorWithdrawal) },
  }, async (req) => {
    const page = await store.withdrawals.list(pageParams(req.query), req.query.state ? { state: req.query.state } : {});
    const approvals = await withdrawalApprovals(store, page.items);
    return ok(req.id, page.items.map((w, i) => wire(w, approvals[i]!)), page.pagination);
  });

  app.post('/withdrawals/:id/approve', {
    preValidation: optionalBody,
    schema: { tags, security: sec, params: IdParam, body: DecideWithdrawal, response: responses(200, OperatorWithdrawal), summary: 'The amount leaves (hold consumed): completed. Once; a second decision is 409. Four-eyes: a first of two approvals answers it still pending_approval, with one approval; the same person again is 409, the bootstrap token 403' },
  }, async (req) => one(await store.withdrawals.approve(approverOf(req), req.params.id, req.body.reason ?? null), req.id));

  app.post('/withdrawals/:id/reject', {
    preValidation: optionalBody,
    schema: { tags, security: sec, params: IdParam, body: DecideWithdrawal, response: responses(200, OperatorWithdrawal), summary: 'The hold is released. Once; a second decision is 409' },
  }, async (req) => one(await store.withdrawals.reject(req.operatorActor!, req.params.id, req.body.reason ?? null), req.id));
};
