import { AdjustmentResult, CreateAdjustment, StaffRequestRecord } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { toMinor } from '../../domain/money.ts';
import { ok } from '../../http/envelope.ts';
import { responses } from '../../http/schemas.ts';
import { approverOf } from '../../http/plugins/operator-auth.ts';
import { adjustBalance } from '../../usecases/ledger/adjust.ts';
import { staffRequestWire } from '../../http/wire/staff-requests.ts';

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
          response: { ...responses(201, AdjustmentResult), 202: responses(200, StaffRequestRecord)[200] },
          summary:
            "Posts a signed adjustment; 202 with a request when a rule of the operator's policy asks two or more staff persons to approve it",
        },
      },
      async (req, reply) => {
        const amount = toMinor(req.body.amountMinor, { signed: true });
        if (amount === null || amount === 0n) throw new DomainError('request.invalid_amount', { field: 'amountMinor' });
        const asset = await store.marketAssets.get(req.body.assetSymbol);
        if (!asset) throw new DomainError('market.asset_not_listed', { asset: req.body.assetSymbol });
        const done = await adjustBalance(deps, approverOf(req), {
          organizationId: req.params.id,
          assetSymbol: asset.symbol,
          amount,
          reason: req.body.reason,
        });
        if ('request' in done) return reply.code(202).send(ok(req.id, staffRequestWire(done.request, asset.decimals)));
        const r = done.applied;
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
