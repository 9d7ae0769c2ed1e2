import { OperatorDestination, ListQuery } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { isUsable } from '../../domain/destinations/bank-destination.ts';
import { ok } from '../../http/envelope.ts';
import { pageParams } from '../../http/page-params.ts';
import { listResponses, responses } from '../../http/schemas.ts';
import type { DestinationRow } from '../../store/destinations-store.ts';
import { registerInMarket } from '../../usecases/destinations/register-in-market.ts';

const sec = [{ operator: [] }];

/** Still masked for the operator: the full account number is never returned by any endpoint. */
const operatorDestinationWire = (d: DestinationRow, now: Date) => ({
  id: d.id,
  organizationId: d.organizationId,
  label: d.label,
  assetSymbol: d.assetSymbol,
  summary: d.summary,
  usable: isUsable(d, now),
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
  };
