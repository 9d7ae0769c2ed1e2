import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { backends, listAssets, makeHarness, seedOrg } from '../../server/test/harness.ts';
import { appendUntil } from '../../server/test/log-append.ts';
import { Cambio, LogForkError, LogMonitor, type LogMonitorState, type LogMonitorStorage } from '../src/index.ts';

const memory = (): LogMonitorStorage & { state: LogMonitorState | null } => {
  const m = {
    state: null as LogMonitorState | null,
    load: () => m.state,
    save: (s: LogMonitorState) => {
      m.state = s;
    },
  };
  return m;
};

for (const backend of backends()) {
  describe(`SDK LogMonitor (${backend})`, () => {
    test('pins the key, remembers the newest checkpoint, takes a newer one only with a consistency proof, and refuses a fork naming both checkpoints', async () => {
      const h = await makeHarness({ backend });
      try {
        const base = await h.app.listen({ port: 0, host: '127.0.0.1' });
        await listAssets(h, { USD: 2 });
        const o = await seedOrg(h, { balances: { USD: 100n } });
        await appendUntil(h, 2);
        const cambio = new Cambio({ apiKey: o.key, baseUrl: base, lang: 'en' });
        const storage = memory();
        const monitor = new LogMonitor({ source: cambio.transparency, storage });
        const first = await monitor.update();
        assert.equal(first.treeSize, 2);
        assert.deepEqual(storage.state, { verifierKey: await cambio.transparency.key(), checkpoint: first });

        // The log grows: taken with its consistency proof.
        await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '5', reason: 'more' });
        await appendUntil(h, 4);
        assert.equal((await monitor.update()).treeSize, 4);
        assert.equal(storage.state!.checkpoint.treeSize, 4);

        // Another key than the one pinned (configured): refused.
        const other = new LogMonitor({ source: cambio.transparency, storage: memory(), verifierKey: 'cambio/localhost+00000000+AQ==' });
        await assert.rejects(other.update(), (e: unknown) => e instanceof LogForkError && /key changed/.test(e.message));

        // The operator rewrites the history and signs it again: the same size with another root, then a larger
        // size with no consistency; each refused, naming both checkpoints, and nothing is remembered.
        const remembered = structuredClone(storage.state);
        const victim = (await h.store.transparency.entries(0, 1))[0]!.entryId;
        await sql`update postings set amount = amount + 1 where entry_id = ${victim} and owner_id = ${o.orgId}`.execute(h.store.db);
        await sql`update postings set amount = amount - 1 where entry_id = ${victim} and owner_id = 'platform'`.execute(h.store.db);
        await sql`delete from log_checkpoints`.execute(h.store.db);
        await sql`delete from log_nodes`.execute(h.store.db);
        await sql`delete from log_leaves`.execute(h.store.db);
        await sql`update log_head set size = 0, frontier = ''::bytea, last_txid = -1, last_seq = 0`.execute(h.store.db);
        await appendUntil(h, 4);
        await assert.rejects(
          monitor.update(),
          (e: unknown) =>
            e instanceof LogForkError &&
            /^the log forked: checkpoint 4 \(root [0-9a-f]{64}\) has the size of checkpoint 4 \(root [0-9a-f]{64}\) seen before, with another root$/.test(
              e.message,
            ),
        );
        await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '1', reason: 'cover' });
        await appendUntil(h, 6);
        await assert.rejects(
          monitor.update(),
          (e: unknown) => e instanceof LogForkError && /is not consistent with checkpoint 4/.test(e.message) && e.previous?.treeSize === 4,
        );
        assert.deepEqual(storage.state, remembered, 'nothing is remembered from a forked log');
        // A monitor with no memory would accept it: that is why the checkpoint is kept.
        assert.equal((await new LogMonitor({ source: cambio.transparency, storage: memory() }).update()).treeSize, 6);
      } finally {
        await h.close();
      }
    });
  });
}
