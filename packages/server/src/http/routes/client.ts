import { Client, type ClientLimit } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { canOperate, type Limits } from '../../domain/organizations/organization.ts';
import type { Store } from '../../store/index.ts';
import { ok } from '../envelope.ts';
import { principalOf } from '../route-config.ts';
import { apiKeySecurity, responses } from '../schemas.ts';

/** The organization's caps with each asset's decimals (spec: a client reads the decimals from responses). */
async function limitsWire(store: Store, limits: Limits): Promise<ClientLimit[] | null> {
  if (limits === null) return null;
  const assets = Object.keys(limits).sort();
  if (assets.length === 0) return [];
  const decimals = new Map((await store.marketAssets.list()).map((a) => [a.symbol, a.decimals]));
  return assets.map((asset) => ({
    assetSymbol: asset,
    assetDecimals: decimals.get(asset) ?? null,
    maxOrderMinor: limits[asset]?.maxOrderMinor?.toString() ?? null,
    maxWithdrawalMinor: limits[asset]?.maxWithdrawalMinor?.toString() ?? null,
  }));
}

export const clientRoutes =
  (store: Store): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/client',
      {
        schema: {
          tags: ['client'],
          summary: "The organization behind this key, what the key may do, and the organization's limits",
          security: apiKeySecurity,
          response: responses(200, Client),
        },
      },
      async (req) => {
        const p = principalOf(req);
        const o = p.organization;
        return ok(req.id, {
          id: o.id,
          name: o.name,
          status: o.status,
          canOperate: canOperate(o),
          permissions: p.permissions,
          limits: await limitsWire(store, o.limits),
        });
      },
    );
  };
