import { InclusionProof, InclusionProofQuery } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { inclusionProof } from '../../domain/transparency/merkle.ts';
import { ok } from '../envelope.ts';
import { principalOf } from '../route-config.ts';
import { apiKeySecurity, responses } from '../schemas.ts';

/** How soon to ask again for an entry not yet in the log: the appender runs every second. */
export const NOT_YET_LOGGED_RETRY_S = 2;

/** The inclusion proof of one of the organization's journal entries in the log (docs/transparency.md). */
export const ledgerProofRoutes =
  ({ store }: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/ledger/:entryId/proof',
      {
        config: { scope: 'portal:read' },
        schema: {
          tags: ['ledger'],
          operationId: 'getLedgerEntryProof',
          security: apiKeySecurity,
          summary:
            "RFC 9162 inclusion proof of one of the organization's journal entries in a checkpoint (default the latest); 409 transparency.not_yet_logged with Retry-After until it joins the log",
          params: Type.Object({ entryId: Type.String({ minLength: 1, maxLength: 64 }) }),
          querystring: InclusionProofQuery,
          response: responses(200, InclusionProof),
        },
      },
      async (req, reply) => {
        const org = principalOf(req).organization.id;
        const at = await store.transparency.leafOf(req.params.entryId, org);
        if (!at.exists || !at.owned) throw new DomainError('transparency.entry_not_found');
        if (at.index === null) {
          reply.header('retry-after', String(NOT_YET_LOGGED_RETRY_S));
          throw new DomainError('transparency.not_yet_logged');
        }
        const latest = await store.transparency.latestCheckpoint();
        // In the log but not yet under a signed checkpoint: the appender signs one within seconds.
        if (req.query.treeSize === undefined && (latest?.size ?? 0) <= at.index) {
          reply.header('retry-after', String(NOT_YET_LOGGED_RETRY_S));
          throw new DomainError('transparency.not_yet_logged');
        }
        const treeSize = req.query.treeSize ?? latest?.size ?? 0;
        const cp = await store.transparency.checkpoint(treeSize);
        if (!cp || treeSize <= at.index) {
          throw new DomainError('transparency.bad_tree_size', {
            detail: `treeSize must be the size of a checkpoint (GET /transparency/checkpoint) larger than the entry's leaf index ${at.index}`,
          });
        }
        const [entry] = await store.transparency.entries(at.index, 1);
        const path = await inclusionProof(at.index, treeSize, store.transparency);
        return ok(req.id, { leafIndex: at.index, treeSize, leaf: entry!.leaf, auditPath: path.map((h) => h.toString('hex')) });
      },
    );
  };
