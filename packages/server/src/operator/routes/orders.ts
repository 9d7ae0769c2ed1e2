import { DecideOrder, OperatorOrderDetail, OperatorOrderRecord, OperatorOrdersQuery, RecordFailure, RecordFill } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { toMinor } from '../../domain/money.ts';
import type { Order } from '../../domain/orders/order.ts';
import { ok } from '../../http/envelope.ts';
import { approverOf } from '../../http/plugins/operator-auth.ts';
import { orderApprovals, type ApprovalsWire } from '../approvals-view.ts';
import { pageParams } from '../../http/page-params.ts';
import { orderWire } from '../../http/wire/orders.ts';
import { listResponses, responses } from '../../http/schemas.ts';
import { approveOrder, rejectOrder } from '../../usecases/orders/decide-order.ts';
import { recordFill, recordOrderFailure } from '../../usecases/orders/record-fill.ts';

const sec = [{ operator: [] }];
const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const wire = (o: Order, a: ApprovalsWire) => ({
  ...orderWire(o),
  organizationId: o.organizationId,
  proceedsQuoteMinor: o.proceedsQuote?.toString() ?? null,
  venue: o.venue,
  venueReference: o.venueReference,
  ...a,
});

/** Exchange requests across organizations, the one decision each gets and, in production, the desk's execution (docs/operator-guide.md, docs/design/money-and-states.md). */
export const operatorOrderRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store } = deps;
    const tags = ['operator: orders'];
    // The body of a decision is optional: a bare POST is a decision without a reason.
    const optionalBody = async (req: { body: unknown }) => {
      req.body ??= {};
    };
    const one = async (o: Order, reqId: string) => ok(reqId, wire(o, (await orderApprovals(store, [o]))[0]!));

    app.get(
      '/orders',
      {
        schema: {
          tags,
          security: sec,
          querystring: OperatorOrdersQuery,
          response: listResponses(OperatorOrderRecord),
          summary: 'Exchange requests of every organization, newest first; ?state= and ?organizationId= filter',
        },
      },
      async (req) => {
        const page = await store.orders.list(pageParams(req.query), {
          ...(req.query.state ? { state: req.query.state } : {}),
          ...(req.query.organizationId ? { organizationId: req.query.organizationId } : {}),
        });
        const approvals = await orderApprovals(store, page.items);
        return ok(
          req.id,
          page.items.map((o, i) => wire(o, approvals[i]!)),
          page.pagination,
        );
      },
    );

    app.get(
      '/orders/:id',
      {
        schema: {
          tags,
          security: sec,
          params: IdParam,
          response: responses(200, OperatorOrderDetail),
          summary:
            "One exchange request and, when its pair is priced from venues' books, what each connected venue offered at quote time and which one it took (docs/market.md, best execution)",
        },
      },
      async (req) => {
        const o = await store.orders.get(req.params.id);
        if (!o) throw new DomainError('orders.not_found');
        const [approvals, offers] = await Promise.all([orderApprovals(store, [o]), store.quotes.offers(o.quoteId)]);
        const text = (v: bigint | null) => (v === null ? null : v.toString());
        return ok(req.id, {
          ...wire(o, approvals[0]!),
          offers: offers.map((f) => ({
            venue: f.venue,
            rateQuoteMinor: text(f.rateQuoteMinor),
            amountBaseMinor: text(f.amountBaseMinor),
            amountQuoteMinor: text(f.amountQuoteMinor),
            proceedsQuoteMinor: text(f.proceedsQuoteMinor),
            leftOut: f.leftOut,
            detail: f.detail,
            chosen: f.chosen,
          })),
        });
      },
    );

    app.post(
      '/orders/:id/approve',
      {
        preValidation: optionalBody,
        schema: {
          tags,
          security: sec,
          params: IdParam,
          body: DecideOrder,
          response: responses(200, OperatorOrderRecord),
          summary:
            'Sandbox: executes at the simulated venue and settles: completed (held base out, quote in), or failed with the hold released. Production: stays approved until the desk records the fill or the failure. Four-eyes: a first of two approvals answers it still pending_approval, with one approval; the same person again is 409, the bootstrap token 403. Once; a second decision is 409 orders.already_decided; 409 ledger.ledger_not_reconciled while the books and the market disagree',
        },
      },
      async (req) => one(await approveOrder(deps, approverOf(req), req.params.id, req.body.reason ?? null), req.id),
    );

    app.post(
      '/orders/:id/reject',
      {
        preValidation: optionalBody,
        schema: {
          tags,
          security: sec,
          params: IdParam,
          body: DecideOrder,
          response: responses(200, OperatorOrderRecord),
          summary: 'Releases the hold; the reason is shown to the client. Once; a second decision is 409',
        },
      },
      async (req) => one(await rejectOrder(deps, req.operatorActor!, req.params.id, req.body.reason ?? null), req.id),
    );

    app.post(
      '/orders/:id/fill',
      {
        schema: {
          tags,
          security: sec,
          params: IdParam,
          body: RecordFill,
          response: responses(200, OperatorOrderRecord),
          summary:
            "Production: the desk executed an approved order. Completed: the client receives the quoted amount; proceeds minus it is booked as the platform's revenue. Once; 409 orders.not_awaiting_execution after; 409 market.venue_simulated in sandbox; 409 orders.venue_outcome_pending while its outcome at a CCXT venue is not known",
        },
      },
      async (req) => {
        const proceeds = toMinor(req.body.proceedsQuoteMinor);
        if (proceeds === null) throw new DomainError('request.invalid_amount', { field: 'proceedsQuoteMinor' });
        return one(
          await recordFill(deps, req.operatorActor!, req.params.id, {
            venue: req.body.venue,
            venueReference: req.body.venueReference,
            proceeds,
          }),
          req.id,
        );
      },
    );

    app.post(
      '/orders/:id/fail',
      {
        schema: {
          tags,
          security: sec,
          params: IdParam,
          body: RecordFailure,
          response: responses(200, OperatorOrderRecord),
          summary:
            'Production: the desk could not execute an approved order. Failed, hold released. Once; 409 orders.not_awaiting_execution after; 409 orders.venue_outcome_pending while its outcome at a CCXT venue is not known',
        },
      },
      async (req) => one(await recordOrderFailure(deps, req.operatorActor!, req.params.id, req.body.reason), req.id),
    );
  };
