import { OperatorDestination, ListQuery, RevealDestination, RevealedDestination } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { isUsable } from '../../domain/destinations/bank-destination.ts';
import { ok } from '../../http/envelope.ts';
import { pageParams } from '../../http/page-params.ts';
import { listResponses, responses } from '../../http/schemas.ts';
import type { DestinationRow } from '../../store/destinations-store.ts';
import { DestinationSealer } from '../../domain/destinations/sealer.ts';
import { registerInMarket } from '../../usecases/destinations/register-in-market.ts';
import { revealDestination } from '../../usecases/destinations/reveal-destination.ts';

const sec = [{ operator: [] }];

/** Masked for the operator too: the full account number only through …/reveal (approver or admin, step-up, audited). */
const operatorDestinationWire = (d: DestinationRow, now: Date) => ({
  id: d.id,
  organizationId: d.organizationId,
  label: d.label,
  assetSymbol: d.assetSymbol,
  summary: d.summary,
  usable: isUsable(d, now),
  state: d.state,
  bankName: d.bankName,
  accountKind: d.accountKind,
  holderName: d.holderName,
  cooldownUntil: d.cooldownUntil.toISOString(),
  registeredInMarketAt: d.registeredInMarketAt?.toISOString() ?? null,
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
  // A crypto address is shown whole to staff: they check it against the chain.
  ...(d.kind === 'crypto' ? { kind: 'crypto' as const, network: d.network ?? '', address: d.address ?? '', memo: d.memo } : {}),
});

/** Withdrawal destinations across organizations, and their registration in the market. */
export const destinationRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store, clock } = deps;
    const sealer = new DestinationSealer(deps.secret);
    const tags = ['operator: withdrawals'];
    app.get(
      '/destinations',
      {
        schema: {
          tags,
          security: sec,
          response: listResponses(OperatorDestination),
          querystring: ListQuery({ organizationId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }),
        },
      },
      async (req) => {
        const page = await store.destinations.list(
          pageParams(req.query),
          req.query.organizationId ? { organizationId: req.query.organizationId } : {},
        );
        const now = clock.now();
        return ok(
          req.id,
          page.items.map((d) => operatorDestinationWire(d, now)),
          page.pagination,
        );
      },
    );

    app.post(
      '/destinations/:id/register-in-market',
      {
        schema: {
          tags,
          security: sec,
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
          response: responses(200, OperatorDestination),
          summary: 'Records that the destination is registered in the market; idempotent (a repeat changes nothing)',
        },
      },
      async (req) => ok(req.id, operatorDestinationWire(await registerInMarket(deps, req.operatorActor!, req.params.id), clock.now())),
    );

    app.post(
      '/destinations/:id/reveal',
      {
        schema: {
          tags,
          security: sec,
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
          body: RevealDestination,
          response: responses(200, RevealedDestination),
          summary:
            "The destination's full account number, to pay it or confirm its registration: approver or admin, confirmed with a fresh code of the person's own authenticator app (403 auth.step_up_required / auth.step_up_invalid), recorded in the audit trail",
        },
        preValidation: async (req) => {
          req.body ??= {};
        },
      },
      async (req) => {
        const staffId = req.staff?.kind === 'staff' ? req.staff.id : null;
        return ok(req.id, await revealDestination({ ...deps, sealer }, staffId, req.params.id, { totpCode: req.body.code }));
      },
    );
  };
