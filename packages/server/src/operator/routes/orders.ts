import { DecideOrder, OperatorOrderRecord, OperatorOrdersQuery } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../app.ts';
import { approveOrder } from '../../domain/orders/approve-order.ts';
import type { Order } from '../../domain/orders/order.ts';
import { ok } from '../../http/envelope.ts';
import { approverOf } from '../../http/plugins/operator-auth.ts';
import { orderApprovals, type ApprovalsWire } from '../approvals-view.ts';
import { pageParams } from '../../http/page-params.ts';
import { orderWire } from '../../http/routes/orders.ts';
import { listResponses, responses } from '../../http/schemas.ts';
import { marketOf } from '../../market/index.ts';

const sec = [{ operator: [] }];
const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const wire = (o: Order, a: ApprovalsWire) => ({ ...orderWire(o), organizationId: o.organizationId, proceedsQuoteMinor: o.proceedsQuote?.toString() ?? null, ...a });

/** Exchange requests across organizations and the one decision each gets (CONTRACT §3, §5). */
export const operatorOrderRoutes = (deps: AppDeps): FastifyPluginAsyncTypebox => async (app) => {
  const { store } = deps;
  const market = marketOf(deps);
  const tags = ['operator: orders'];
  // The body of a decision is optional: a bare POST is a decision without a reason.
  const optionalBody = async (req: { body: unknown }) => { req.body ??= {}; };
  const one = async (o: Order, reqId: string) => ok(reqId, wire(o, (await orderApprovals(store, [o]))[0]!));

  app.get('/orders', {
    schema: { tags, security: sec, querystring: OperatorOrdersQuery, response: listResponses(OperatorOrderRecord), summary: 'Exchange requests of every organization, newest first; ?state= and ?organizationId= filter' },
  }, async (req) => {
    const page = await store.orders.list(pageParams(req.query), { ...(req.query.state ? { state: req.query.state } : {}), ...(req.query.organizationId ? { organizationId: req.query.organizationId } : {}) });
    const approvals = await orderApprovals(store, page.items);
    return ok(req.id, page.items.map((o, i) => wire(o, approvals[i]!)), page.pagination);
  });

  app.post('/orders/:id/approve', {
    preValidation: optionalBody,
    schema: {
      tags, security: sec, params: IdParam, body: DecideOrder, response: responses(200, OperatorOrderRecord),
      summary: 'Executes at the market and settles (four-eyes: a first of two approvals answers it still pending_approval, with one approval; the same person again is 409, the bootstrap token 403): completed (held base out, quote in), or failed with the hold released. Once; a second decision is 409 orders.already_decided; 409 ledger.ledger_not_reconciled while the books and the market disagree',
    },
  }, async (req) => one(await approveOrder(store.orders, market, approverOf(req), req.params.id, req.body.reason ?? null), req.id));

  app.post('/orders/:id/reject', {
    preValidation: optionalBody,
    schema: { tags, security: sec, params: IdParam, body: DecideOrder, response: responses(200, OperatorOrderRecord), summary: 'Releases the hold; the reason is shown to the client. Once; a second decision is 409' },
  }, async (req) => one(await store.orders.reject(req.operatorActor!, req.params.id, req.body.reason ?? null), req.id));
};
