import { DeclareDeposit, DepositDeclaration, DepositRecord, DepositsQuery, DepositWallet, Nullable } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { toMinor } from '../../domain/money.ts';
import { ok } from '../envelope.ts';
import { declarationWire, depositWire } from '../wire/deposits.ts';
import { createdWindow, pageParams } from '../page-params.ts';
import { actorOfPrincipal, principalOf } from '../route-config.ts';
import { cancelDeclaration } from '../../usecases/deposits/cancel-declaration.ts';
import { declareDeposit } from '../../usecases/deposits/declare-deposit.ts';
import { apiKeySecurity, IdParam, listResponses, responses } from '../schemas.ts';

/** Wallets, declarations and the deposits that arrived (spec: deposits; docs/design/money-and-states.md for the rules per route). */
export const depositRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store, clock, config } = deps;
    const tags = ['deposits'];

    // Spec rule 6: read before each deposit and never cached; the addresses may change.
    app.get(
      '/deposits/wallets',
      {
        config: { scope: 'portal:deposit', operate: true },
        schema: {
          tags,
          summary: 'Where to send each asset the platform can receive (one wallet per asset, with its network)',
          security: apiKeySecurity,
          response: listResponses(DepositWallet),
        },
      },
      async (req, reply) => {
        const wallets = await store.wallets.list();
        reply.header('cache-control', 'no-store');
        return ok(
          req.id,
          wallets.map((w) => ({ assetSymbol: w.assetSymbol, network: w.network, address: w.address })),
        );
      },
    );

    app.post(
      '/deposits/declarations',
      {
        config: { scope: 'portal:deposit', operate: true, movesMoney: true },
        schema: {
          tags,
          summary: 'Declare a deposit: the answer gives the exact amount to send (declared amount plus a unique tail)',
          security: apiKeySecurity,
          body: DeclareDeposit,
          response: responses(201, DepositDeclaration),
        },
      },
      async (req, reply) => {
        const declared = toMinor(req.body.declaredAmountMinor);
        if (declared === null) throw new DomainError('request.invalid_amount', { field: 'declaredAmountMinor' });
        const d = await declareDeposit(deps, principalOf(req).organization.id, {
          assetSymbol: req.body.assetSymbol,
          assetDecimals: req.body.assetDecimals,
          declaredAmount: declared,
          ttlMs: config.declarationTtlMs,
        });
        reply.header('cache-control', 'no-store');
        return reply.code(201).send(ok(req.id, declarationWire(d, clock.now())));
      },
    );

    app.post(
      '/deposits/declarations/:id/cancel',
      {
        config: { scope: 'portal:deposit' },
        schema: {
          tags,
          security: apiKeySecurity,
          params: IdParam,
          response: responses(200, DepositDeclaration),
          operationId: 'cancelDeclaration',
          summary:
            'Cancel an open declaration: it stops matching at once; cancelling again answers the same; a matched or expired one is 409',
        },
      },
      async (req, reply) => {
        const p = principalOf(req);
        const d = await cancelDeclaration(deps, actorOfPrincipal(p), p.organization.id, req.params.id);
        reply.header('cache-control', 'no-store');
        return ok(req.id, declarationWire(d, clock.now()));
      },
    );

    // Open to portal:deposit as well as portal:read: the 409 of a declaration sends the caller here.
    app.get(
      '/deposits/open-declaration',
      {
        config: { scope: ['portal:read', 'portal:deposit'] },
        schema: {
          tags,
          summary: 'The open declaration, or data: null when none is open',
          security: apiKeySecurity,
          response: responses(200, Nullable(DepositDeclaration)),
        },
      },
      async (req, reply) => {
        const d = await store.declarations.open(principalOf(req).organization.id);
        reply.header('cache-control', 'no-store');
        return ok(req.id, d ? declarationWire(d, clock.now()) : null);
      },
    );

    app.get(
      '/deposits/:id',
      {
        config: { scope: 'portal:read' },
        schema: {
          tags,
          summary: 'One deposit that arrived for the organization',
          operationId: 'getDeposit',
          security: apiKeySecurity,
          params: IdParam,
          response: responses(200, DepositRecord),
        },
      },
      async (req) => {
        const d = await store.deposits.get(req.params.id);
        if (!d || d.organizationId !== principalOf(req).organization.id) throw new DomainError('deposits.not_found');
        return ok(req.id, depositWire(d));
      },
    );

    app.get(
      '/deposits',
      {
        config: { scope: 'portal:read' },
        schema: {
          tags,
          summary: 'Deposits that arrived for the organization, newest first',
          security: apiKeySecurity,
          querystring: DepositsQuery,
          response: listResponses(DepositRecord),
        },
      },
      async (req) => {
        const page = await store.deposits.list(pageParams(req.query), {
          organizationId: principalOf(req).organization.id,
          state: req.query.state,
          ...createdWindow(req.query),
        });
        return ok(req.id, page.items.map(depositWire), page.pagination);
      },
    );
  };
