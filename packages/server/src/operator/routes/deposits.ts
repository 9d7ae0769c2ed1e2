import { AttributeDeposit, OperatorDepositQuery, OperatorDepositRecord, RecordArrival, StaffRequestRecord } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { toMinor } from '../../domain/money.ts';
import { ok } from '../../http/envelope.ts';
import { pageParams } from '../../http/page-params.ts';
import { depositWire } from '../../http/wire/deposits.ts';
import { listResponses, responses } from '../../http/schemas.ts';
import type { Deposit } from '../../store/deposits-store.ts';
import { attributeArrival, recordArrival } from '../../usecases/deposits/record-arrival.ts';
import { readReference } from '../../domain/deposits/reference.ts';
import { approverOf } from '../../http/plugins/operator-auth.ts';
import { decimalsOf, staffRequestWire } from '../../http/wire/staff-requests.ts';

const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const sec = [{ operator: [] }];
const wire = (d: Deposit) => ({ ...depositWire(d), organizationId: d.organizationId });

/** Arrivals: recorded once per txid, matched by exact amount (and the reference, when given), or credited by hand (docs/operator-guide.md). */
export const operatorDepositRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store } = deps;
    const tags = ['operator: deposits'];
    app.post(
      '/deposits',
      {
        schema: {
          tags,
          summary: 'Record money that arrived; matched to an open declaration by exact amount, else unattributed',
          security: sec,
          body: RecordArrival,
          response: responses(201, OperatorDepositRecord),
        },
      },
      async (req, reply) => {
        const amount = toMinor(req.body.amountMinor);
        if (amount === null || amount === 0n) throw new DomainError('request.invalid_amount', { field: 'amountMinor' });
        const typed = req.body.reference?.trim() ?? '';
        const reference = typed === '' ? undefined : readReference(typed);
        if (reference === null) throw new DomainError('deposits.invalid_reference');
        const d = await recordArrival(deps, req.operatorActor!, {
          assetSymbol: req.body.assetSymbol,
          network: req.body.network,
          amount,
          txid: req.body.txid,
          ...(reference ? { reference } : {}),
        });
        return reply.code(201).send(ok(req.id, wire(d)));
      },
    );

    app.post(
      '/deposits/:id/attribute',
      {
        schema: {
          tags,
          summary:
            "Credit an unattributed arrival to an organization, once; 202 with a request when a rule of the operator's policy asks two or more staff persons to approve it",
          security: sec,
          params: IdParam,
          body: AttributeDeposit,
          response: { ...responses(200, OperatorDepositRecord), 202: responses(200, StaffRequestRecord)[200] },
        },
      },
      async (req, reply) => {
        const done = await attributeArrival(deps, approverOf(req), req.params.id, req.body.organizationId);
        if ('applied' in done) return ok(req.id, wire(done.applied));
        return reply.code(202).send(ok(req.id, staffRequestWire(done.request, (await decimalsOf(deps))(done.request.assetSymbol))));
      },
    );

    app.get(
      '/deposits',
      {
        schema: {
          tags,
          summary: 'Arrivals across organizations, newest first; ?state=unattributed for the ones waiting',
          security: sec,
          querystring: OperatorDepositQuery,
          response: listResponses(OperatorDepositRecord),
        },
      },
      async (req) => {
        const page = await store.deposits.list(pageParams(req.query), req.query.state ? { state: req.query.state } : {});
        return ok(req.id, page.items.map(wire), page.pagination);
      },
    );

    app.get(
      '/deposits/:id',
      { schema: { tags, security: sec, params: IdParam, response: responses(200, OperatorDepositRecord) } },
      async (req) => {
        const d = await store.deposits.get(req.params.id);
        if (!d) throw new DomainError('deposits.not_found');
        return ok(req.id, wire(d));
      },
    );
  };
