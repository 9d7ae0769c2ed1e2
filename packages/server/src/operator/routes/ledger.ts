import { AdjustmentResult, CreateAdjustment } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { toMinor } from '../../domain/money.ts';
import { ok } from '../../http/envelope.ts';
import { responses } from '../../http/schemas.ts';
import { adjustBalance } from '../../usecases/ledger/adjust.ts';

/** Signed manual adjustments: sandbox funding and corrections, audited. */
export const adjustmentRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store } = deps;
    app.post(
      '/organizations/:id/adjustments',
      {
        schema: {
          tags: ['operator: ledger'],
          security: [{ operator: [] }],
          params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
          body: CreateAdjustment,
          response: responses(201, AdjustmentResult),
        },
      },
      async (req, reply) => {
        const amount = toMinor(req.body.amountMinor, { signed: true });
        if (amount === null || amount === 0n) throw new DomainError('request.invalid_amount', { field: 'amountMinor' });
        const asset = await store.marketAssets.get(req.body.assetSymbol);
        if (!asset) throw new DomainError('market.asset_not_listed', { asset: req.body.assetSymbol });
        const r = await adjustBalance(deps, req.operatorActor!, {
          organizationId: req.params.id,
          assetSymbol: asset.symbol,
          amount,
          reason: req.body.reason,
        });
        return reply.code(201).send(
          ok(req.id, {
            entryId: r.entryId,
            organizationId: req.params.id,
            assetSymbol: asset.symbol,
            assetDecimals: asset.decimals,
            amountMinor: amount.toString(),
            availableMinor: r.available.toString(),
          }),
        );
      },
    );
  };
