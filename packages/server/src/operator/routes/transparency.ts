import { LogCheckpoint, LogEntry, LogRangeQuery } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.ts';
import { ok } from '../../http/envelope.ts';
import { listResponses } from '../../http/schemas.ts';

const tags = ['operator: transparency'];
const security = [{ operator: [] }];

/** The whole journal log for `cambio verify` (CONTRACT §12): every checkpoint and every entry, oldest first. */
export const operatorTransparencyRoutes = ({ store }: AppDeps): FastifyPluginAsyncTypebox => async (app) => {
  app.get('/transparency/checkpoints', {
    schema: { tags, security, querystring: LogRangeQuery, response: listResponses(LogCheckpoint), summary: 'Signed checkpoints from tree size ?from= on, oldest first (?limit= ≤ 1000, default 100)' },
  }, async (req) => {
    const list = await store.transparency.checkpoints(req.query.from ?? 0, req.query.limit ?? 100);
    return ok(req.id, list.map((c) => ({ treeSize: c.size, rootHash: c.root.toString('hex'), note: c.note, createdAt: c.createdAt.toISOString() })));
  });

  app.get('/transparency/entries', {
    schema: { tags, security, querystring: LogRangeQuery, response: listResponses(LogEntry), summary: 'Logged entries from leaf index ?from= on (?limit= ≤ 1000, default 100): the leaf rebuilt from the stored postings, and the leaf hash as logged' },
  }, async (req) => {
    const list = await store.transparency.entries(req.query.from ?? 0, req.query.limit ?? 100);
    return ok(req.id, list.map((e) => ({ index: e.index, entryId: e.entryId, leaf: e.leaf, leafHash: e.leafHash.toString('hex') })));
  });
};
