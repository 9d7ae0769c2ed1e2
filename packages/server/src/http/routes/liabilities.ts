import { OwnLiabilities } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { leafSalt, saltKey } from '../../domain/transparency/sum-tree.ts';
import { ok } from '../envelope.ts';
import { principalOf } from '../route-config.ts';
import { apiKeySecurity, responses } from '../schemas.ts';

/**
 * The organization's own leaves in the latest liabilities snapshot (CONTRACT §12): its amount and salt
 * per asset and the path to the published root, so it checks, with no one's word, that what it is owed
 * is counted in the total the platform publishes.
 */
export const liabilitiesRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const key = saltKey(deps.secret);
    app.get(
      '/liabilities/latest',
      {
        config: { scope: 'portal:read' },
        schema: {
          tags: ['liabilities'],
          operationId: 'getOwnLiabilities',
          security: apiKeySecurity,
          summary:
            "The organization's leaf per asset in the latest liabilities snapshot, with its salt and its Merkle sum path to the published root (GET /transparency/liabilities/latest); 404 liabilities.no_snapshot before any",
          response: responses(200, OwnLiabilities),
        },
      },
      async (req) => {
        const org = principalOf(req).organization.id;
        const latest = await deps.store.liabilities.latest();
        if (!latest) throw new DomainError('liabilities.no_snapshot');
        const leaves = await deps.store.liabilities.own(latest.id, org);
        return ok(req.id, {
          snapshotId: latest.id,
          assets: leaves.map((l) => ({
            assetSymbol: l.assetSymbol,
            amountMinor: l.amount.toString(),
            salt: leafSalt(key, latest.id, org, l.assetSymbol).toString('hex'),
            leafIndex: l.leafIndex,
            path: l.path.map((n) => ({ hash: n.hash.toString('hex'), sumMinor: n.sum.toString() })),
          })),
        });
      },
    );
  };
