import { Balance } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Store } from '../../store/index.ts';
import { ok } from '../envelope.ts';
import { principalOf } from '../route-config.ts';
import { apiKeySecurity, listResponses } from '../schemas.ts';

export const balancesRoutes =
  (store: Store): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/balances',
      {
        config: { scope: 'portal:read' },
        schema: {
          tags: ['balances'],
          summary: 'One row per asset: available (amountMinor), held and total',
          security: apiKeySecurity,
          response: listResponses(Balance),
        },
      },
      async (req) => {
        const rows = await store.accounts.balances(principalOf(req).organization.id);
        return ok(
          req.id,
          rows.map((b) => ({
            assetSymbol: b.assetSymbol,
            assetDecimals: b.assetDecimals,
            amountMinor: b.available.toString(),
            heldMinor: b.held.toString(),
            totalMinor: (b.available + b.held).toString(),
          })),
        );
      },
    );
  };
