import { MarketAssetRecord, PutMarketAsset } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { ok } from '../../http/envelope.ts';
import { listResponses, responses } from '../../http/schemas.ts';
import { assetView, putAsset } from '../../usecases/market/put-asset.ts';

export const marketAssetRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['operator: market'];
    app.put(
      '/market/assets/:symbol',
      {
        schema: {
          tags,
          security: [{ operator: [] }],
          params: Type.Object({ symbol: Type.String({ pattern: '^[A-Z0-9]{2,12}$' }) }),
          body: PutMarketAsset,
          response: responses(200, MarketAssetRecord),
        },
      },
      async (req) => ok(req.id, assetView(await putAsset(deps, req.operatorActor!, req.params.symbol, req.body.decimals, req.body.kind))),
    );

    app.get('/market/assets', { schema: { tags, security: [{ operator: [] }], response: listResponses(MarketAssetRecord) } }, async (req) =>
      ok(req.id, (await deps.store.marketAssets.list()).map(assetView)),
    );
  };
