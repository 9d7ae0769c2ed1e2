import { LiabilitiesSnapshot, LogCheckpoint, LogEntry, LogRangeQuery, SnapshotListQuery } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.ts';
import { ok } from '../../http/envelope.ts';
import { listResponses, responses } from '../../http/schemas.ts';
import type { Snapshot } from '../../store/liabilities-store.ts';
import { takeLiabilitiesSnapshot } from '../../usecases/transparency/take-snapshot.ts';

const tags = ['operator: transparency'];
const security = [{ operator: [] }];

/** The whole journal log for `cambio verify` (docs/transparency.md): every checkpoint and every entry, oldest first. */
export const operatorTransparencyRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store } = deps;
    app.get(
      '/transparency/checkpoints',
      {
        schema: {
          tags,
          security,
          querystring: LogRangeQuery,
          response: listResponses(LogCheckpoint),
          summary: 'Signed checkpoints from tree size ?from= on, oldest first (?limit= ≤ 1000, default 100)',
        },
      },
      async (req) => {
        const list = await store.transparency.checkpoints(req.query.from ?? 0, req.query.limit ?? 100);
        return ok(
          req.id,
          list.map((c) => ({ treeSize: c.size, rootHash: c.root.toString('hex'), note: c.note, createdAt: c.createdAt.toISOString() })),
        );
      },
    );

    app.get(
      '/transparency/entries',
      {
        schema: {
          tags,
          security,
          querystring: LogRangeQuery,
          response: listResponses(LogEntry),
          summary:
            'Logged entries from leaf index ?from= on (?limit= ≤ 1000, default 100): the leaf rebuilt from the stored postings, and the leaf hash as logged',
        },
      },
      async (req) => {
        const list = await store.transparency.entries(req.query.from ?? 0, req.query.limit ?? 100);
        return ok(
          req.id,
          list.map((e) => ({ index: e.index, entryId: e.entryId, leaf: e.leaf, leafHash: e.leafHash.toString('hex') })),
        );
      },
    );

    app.post(
      '/liabilities/snapshots',
      {
        schema: {
          tags,
          security,
          response: responses(201, LiabilitiesSnapshot),
          summary:
            "Takes a liabilities snapshot now (admin) at a log size (treeSize): every organization's postings (available + held) per listed asset in the log's entries below it, split into 2 to 4 parts, a Merkle sum tree per asset, the roots and totals published at GET /transparency/liabilities/latest; 422 liabilities.total_too_large when a total passes 2^256 − 1",
        },
      },
      async (req, reply) => {
        const s = await takeLiabilitiesSnapshot(deps);
        if (!s) throw new Error('an on-demand snapshot is never refused');
        return reply.code(201).send(ok(req.id, snapshotWire(s)));
      },
    );

    app.get(
      '/liabilities/snapshots',
      {
        schema: {
          tags,
          security,
          querystring: SnapshotListQuery,
          response: listResponses(LiabilitiesSnapshot),
          summary: 'The latest liabilities snapshots, newest first (?limit= ≤ 100, default 20), with their roots and totals',
        },
      },
      async (req) => ok(req.id, (await store.liabilities.list(req.query.limit ?? 20)).map(snapshotWire)),
    );
  };

const snapshotWire = (s: Snapshot) => ({
  snapshotId: s.id,
  takenAt: s.takenAt.toISOString(),
  treeSize: s.treeSize,
  daily: s.daily !== null,
  note: s.note,
  assets: s.assets.map((a) => ({
    assetSymbol: a.assetSymbol,
    assetDecimals: a.assetDecimals,
    rootHash: a.rootHash.toString('hex'),
    totalMinor: a.total.toString(),
    leafCount: a.leafCount,
  })),
});
