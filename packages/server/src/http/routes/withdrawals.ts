import {
  RegisterBankDestination,
  RegisterCryptoDestination,
  RequestWithdrawal,
  Withdrawal,
  WithdrawalDestination,
  WithdrawalsQuery,
} from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.ts';
import { prepareCryptoDestination, prepareDestination } from '../../domain/destinations/register.ts';
import { DestinationSealer } from '../../domain/destinations/sealer.ts';
import { DomainError } from '../../domain/errors.ts';
import { toMinor } from '../../domain/money.ts';
import type { WithdrawalRow } from '../../store/withdrawals-store.ts';
import { registerDestination } from '../../usecases/destinations/register-destination.ts';
import { cancelWithdrawal } from '../../usecases/withdrawals/cancel-withdrawal.ts';
import { requestWithdrawal } from '../../usecases/withdrawals/request-withdrawal.ts';
import { ok } from '../envelope.ts';
import { answerByRef } from '../plugins/answer-by-reference.ts';
import { asRequested, destinationWire, withdrawalWire } from '../wire/withdrawals.ts';
import { asOpened } from '../wire/organization-approvals.ts';
import type { OrganizationApprovals } from '../../domain/policy/approvals.ts';
import { createdWindow, pageParams } from '../page-params.ts';
import { actorOfPrincipal, principalOf } from '../route-config.ts';
import { apiKeySecurity, IdParam, listResponses, responses } from '../schemas.ts';

/** Withdrawal destinations and withdrawal requests of the caller's organization. */
export const withdrawalRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store, clock, config, secret, ids } = deps;
    const tags = ['withdrawals'];
    const sealer = new DestinationSealer(secret);
    // A keyed withdrawal's answer is kept by reference to the withdrawal, in the transaction that requests it.
    const answers = answerByRef(
      201,
      (w: WithdrawalRow & { approvals: OrganizationApprovals | null }) => withdrawalWire(w, w.approvals),
      async (id, req) => {
        const w = await store.withdrawals.getFor(principalOf(req).organization.id, id);
        return w && { ...asRequested(w), approvals: asOpened((await store.controls.forRequests('withdrawals', [id])).get(id)) };
      },
    );

    app.post(
      '/withdrawals/destinations/bank',
      {
        config: { scope: 'portal:destinations', operate: true, movesMoney: true },
        schema: {
          tags,
          security: apiKeySecurity,
          body: RegisterBankDestination,
          response: responses(201, WithdrawalDestination),
          summary: "Registers a bank account; usable after the cooldown and the operator's registration in the market",
        },
      },
      async (req, reply) => {
        const org = principalOf(req).organization;
        const row = { id: ids.next('dst'), organizationId: org.id };
        const d = await registerDestination(
          deps,
          org.id,
          prepareDestination(req.body, sealer, row, clock.now(), config.destinationCooldownMs),
          principalOf(req).memberId,
        );
        return reply.code(201).send(ok(req.id, destinationWire(d, clock.now(), d.approvals)));
      },
    );

    app.post(
      '/withdrawals/destinations/crypto',
      {
        config: { scope: 'portal:destinations', operate: true, movesMoney: true },
        schema: {
          tags,
          security: apiKeySecurity,
          body: RegisterCryptoDestination,
          response: responses(201, WithdrawalDestination),
          summary:
            "Registers a crypto address on a network the platform pays the asset out on; usable after the cooldown and the operator's registration in the market. 422 destinations.network_not_supported, destinations.invalid_address, destinations.kind_mismatch; 409 when registered already",
        },
      },
      async (req, reply) => {
        const org = principalOf(req).organization;
        const row = { id: ids.next('dst'), organizationId: org.id };
        const d = await registerDestination(
          deps,
          org.id,
          prepareCryptoDestination(req.body, sealer, row, clock.now(), config.destinationCooldownMs, config.mode === 'production'),
          principalOf(req).memberId,
        );
        return reply.code(201).send(ok(req.id, destinationWire(d, clock.now(), d.approvals)));
      },
    );

    // The spec's table gives this list no parameters and an array: every destination, not a page.
    app.get(
      '/withdrawals/destinations',
      {
        config: { scope: 'portal:read' },
        schema: {
          tags,
          security: apiKeySecurity,
          response: listResponses(WithdrawalDestination),
          summary: 'Every destination of the organization, masked, newest first (not paged)',
        },
      },
      async (req) => {
        const all = await store.destinations.allOf(principalOf(req).organization.id);
        const approvals = await store.controls.forRequests(
          'destinations',
          all.map((d) => d.id),
        );
        const now = clock.now();
        return ok(
          req.id,
          all.map((d) => destinationWire(d, now, approvals.get(d.id))),
        );
      },
    );

    app.post(
      '/withdrawals',
      {
        config: { scope: 'portal:withdraw', operate: true, movesMoney: true, answerByRef: answers.config },
        schema: {
          tags,
          security: apiKeySecurity,
          body: RequestWithdrawal,
          response: responses(201, Withdrawal),
          summary:
            'Requests a withdrawal: the amount is held until a person at the operator approves or rejects it. Not safe to repeat: read GET /withdrawals first',
        },
      },
      async (req, reply) => {
        const amount = toMinor(req.body.amountMinor);
        if (amount === null) throw new DomainError('request.invalid_amount', { field: 'amountMinor' });
        const w = await requestWithdrawal(
          deps,
          principalOf(req).organization,
          {
            destinationId: req.body.destinationId,
            assetSymbol: req.body.assetSymbol,
            assetDecimals: req.body.assetDecimals,
            amount,
          },
          principalOf(req).memberId,
        );
        return answers.send(req, reply, w);
      },
    );

    app.get(
      '/withdrawals/:id',
      {
        config: { scope: 'portal:read' },
        schema: {
          tags,
          security: apiKeySecurity,
          params: IdParam,
          response: responses(200, Withdrawal),
          summary: 'One withdrawal of the organization, to poll its state',
          operationId: 'getWithdrawal',
        },
      },
      async (req) => {
        const w = await store.withdrawals.getFor(principalOf(req).organization.id, req.params.id);
        if (!w) throw new DomainError('withdrawals.not_found');
        return ok(req.id, withdrawalWire(w, (await store.controls.forRequests('withdrawals', [w.id])).get(w.id)));
      },
    );

    app.post(
      '/withdrawals/:id/cancel',
      {
        config: { scope: 'portal:withdraw' },
        schema: {
          tags,
          security: apiKeySecurity,
          params: IdParam,
          response: responses(200, Withdrawal),
          summary: 'Cancel a withdrawal still pending_approval: the hold is released; a decided one is 409',
          operationId: 'cancelWithdrawal',
        },
      },
      async (req) => {
        const p = principalOf(req);
        const w = await cancelWithdrawal(deps, actorOfPrincipal(p), p.organization.id, req.params.id);
        return ok(req.id, withdrawalWire(w, (await store.controls.forRequests('withdrawals', [w.id])).get(w.id)));
      },
    );

    app.get(
      '/withdrawals',
      {
        config: { scope: 'portal:read' },
        schema: {
          tags,
          security: apiKeySecurity,
          querystring: WithdrawalsQuery,
          response: listResponses(Withdrawal),
          summary: "The organization's withdrawals, newest first",
        },
      },
      async (req) => {
        const page = await store.withdrawals.list(pageParams(req.query), {
          organizationId: principalOf(req).organization.id,
          state: req.query.state,
          ...createdWindow(req.query),
        });
        const approvals = await store.controls.forRequests(
          'withdrawals',
          page.items.map((w) => w.id),
        );
        return ok(
          req.id,
          page.items.map((w) => withdrawalWire(w, approvals.get(w.id))),
          page.pagination,
        );
      },
    );
  };
