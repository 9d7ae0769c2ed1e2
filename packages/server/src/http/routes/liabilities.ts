import { OwnLiabilities } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { leafSalt, saltKey } from '../../domain/transparency/sum-tree.ts';
import { ok } from '../envelope.ts';
import { principalOf } from '../route-config.ts';
import { apiKeySecurity, responses } from '../schemas.ts';

/**
 * The organization's own leaves in the latest liabilities snapshot (docs/transparency.md): per asset its
 * amount at the snapshot's log size and every part's amount, salt and path to the published root, so it
 * checks, with no one's word, that what it is owed is counted in the total the platform publishes.
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
            "The organization's amount per asset in the latest liabilities snapshot, at the snapshot's log size (treeSize), with each of its parts' salt and Merkle sum path to the published root (GET /transparency/liabilities/latest); 404 liabilities.no_snapshot before any",
          response: responses(200, OwnLiabilities),
        },
      },
      async (req) => {
        const org = principalOf(req).organization.id;
        const latest = await deps.store.liabilities.latest();
        if (!latest) throw new DomainError('liabilities.no_snapshot');
        const leaves = await deps.store.liabilities.own(latest.id, org);
        const assets = new Map<string, typeof leaves>();
        for (const l of leaves) assets.set(l.assetSymbol, [...(assets.get(l.assetSymbol) ?? []), l]);
        return ok(req.id, {
          snapshotId: latest.id,
          treeSize: latest.treeSize,
          assets: [...assets].map(([assetSymbol, parts]) => ({
            assetSymbol,
            amountMinor: parts.reduce((sum, p) => sum + p.amount, 0n).toString(),
            parts: parts.map((p) => ({
              part: p.part,
              amountMinor: p.amount.toString(),
              salt: leafSalt(key, { snapshotId: latest.id, organizationId: org, assetSymbol, part: p.part }).toString('hex'),
              leafIndex: p.leafIndex,
              path: p.path.map((n) => ({ hash: n.hash.toString('hex'), sumMinor: n.sum.toString() })),
            })),
          })),
        });
      },
    );
  };
