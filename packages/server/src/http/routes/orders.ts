import { CreateOrder, OrderRecord, OrdersQuery } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { asCreated, type Order } from '../../domain/orders/order.ts';
import { QuoteIds } from '../../domain/quotes/quote-id.ts';
import { cancelOrder } from '../../usecases/orders/decide-order.ts';
import { placeOrder } from '../../usecases/orders/place-order.ts';
import { ok } from '../envelope.ts';
import { answerByRef } from '../plugins/answer-by-reference.ts';
import { orderWire } from '../wire/orders.ts';
import { asOpened } from '../wire/organization-approvals.ts';
import type { OrganizationApprovals } from '../../domain/policy/approvals.ts';
import { createdWindow, pageParams } from '../page-params.ts';
import { actorOfPrincipal, principalOf } from '../route-config.ts';
import { apiKeySecurity, IdParam, listResponses, responses } from '../schemas.ts';

/** Exchange requests: accepting a quote creates a request and holds the base amount; a person at the operator decides. */
export const orderRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store, secret, ids } = deps;
    const placing = { ...deps, quoteIds: new QuoteIds(secret, ids) };
    // A keyed order's answer is kept by reference to the order, in the transaction that places it.
    const answers = answerByRef(
      201,
      (o: Order & { approvals: OrganizationApprovals | null }) => orderWire(o, o.approvals),
      async (id, req) => {
        const o = await store.orders.get(id);
        if (!o || o.organizationId !== principalOf(req).organization.id) return null;
        return { ...asCreated(o), approvals: asOpened((await store.controls.forRequests('orders', [id])).get(id)) };
      },
    );
    app.post(
      '/orders',
      {
        config: { scope: 'portal:trade', operate: true, movesMoney: true, answerByRef: answers.config },
        schema: {
          tags: ['orders'],
          summary: 'Accept a quote once: creates an exchange request (pending_approval) and holds the base amount',
          security: apiKeySecurity,
          body: CreateOrder,
          response: responses(201, OrderRecord),
        },
      },
      async (req, reply) =>
        answers.send(req, reply, await placeOrder(placing, principalOf(req).organization, req.body.quoteId, principalOf(req).memberId)),
    );

    app.get(
      '/orders/:id',
      {
        config: { scope: 'portal:read' },
        schema: {
          tags: ['orders'],
          summary: 'One exchange request of the organization, to poll its state',
          operationId: 'getOrder',
          security: apiKeySecurity,
          params: IdParam,
          response: responses(200, OrderRecord),
        },
      },
      async (req) => {
        const o = await store.orders.get(req.params.id);
        if (!o || o.organizationId !== principalOf(req).organization.id) throw new DomainError('orders.not_found');
        return ok(req.id, orderWire(o, (await store.controls.forRequests('orders', [o.id])).get(o.id)));
      },
    );

    app.post(
      '/orders/:id/cancel',
      {
        config: { scope: 'portal:trade' },
        schema: {
          tags: ['orders'],
          summary: 'Cancel an exchange request still pending_approval: the hold is released; a decided one is 409',
          operationId: 'cancelOrder',
          security: apiKeySecurity,
          params: IdParam,
          response: responses(200, OrderRecord),
        },
      },
      async (req) => {
        const p = principalOf(req);
        const o = await cancelOrder(deps, actorOfPrincipal(p), p.organization.id, req.params.id);
        return ok(req.id, orderWire(o, (await store.controls.forRequests('orders', [o.id])).get(o.id)));
      },
    );

    app.get(
      '/orders',
      {
        config: { scope: 'portal:read' },
        schema: {
          tags: ['orders'],
          summary: 'Exchange requests of the organization, newest first',
          security: apiKeySecurity,
          querystring: OrdersQuery,
          response: listResponses(OrderRecord),
        },
      },
      async (req) => {
        const page = await store.orders.listForOrganization(principalOf(req).organization.id, pageParams(req.query), {
          state: req.query.state,
          ...createdWindow(req.query),
        });
        const approvals = await store.controls.forRequests(
          'orders',
          page.items.map((o) => o.id),
        );
        return ok(
          req.id,
          page.items.map((o) => orderWire(o, approvals.get(o.id))),
          page.pagination,
        );
      },
    );
  };
