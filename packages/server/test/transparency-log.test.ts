import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { adjustmentEntries } from '../src/domain/ledger/entries.ts';
import { postEntry } from '../src/store/ledger-store.ts';
import { appendJournalLog, appendLogBatch } from '../src/usecases/transparency/append-log.ts';
import { logIdentity } from '../src/usecases/transparency/log-signer.ts';
import { appendUntil } from './log-append.ts';
import { backends, createPgDatabase, listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';
import { H_LEAF, mthOfHashes, openNote, parseCheckpoint, verifyConsistency } from './transparency-verifier.ts';
import { latch } from './latch.ts';

const adjust = async (h: Harness, orgId: string, amount: bigint) => {
  const r = await h.op('POST', `/organizations/${orgId}/adjustments`, {
    assetSymbol: 'USD',
    amountMinor: amount.toString(),
    reason: 'log test',
  });
  assert.equal(r.status, 201, r.raw);
};

/**
 * Checks the whole log from the store, independently: leaves 0..n-1 with every journal entry once, each
 * leaf hash the hash of its leaf, each checkpoint signed and its root the MTH of its leaves, and each
 * checkpoint consistent with the next (proofs made by the store, checked by the independent verifier).
 */
async function checkWholeLog(h: Harness): Promise<{ size: number; entryIds: string[] }> {
  const t = h.store.transparency;
  const entries = await t.entries(0, 1_000_000);
  const journal = await h.store.db.selectFrom('journal_entries').select('id').execute();
  assert.deepEqual(
    entries.map((e) => e.index),
    entries.map((_, i) => i),
    'no gap',
  );
  assert.deepEqual([...entries.map((e) => e.entryId)].sort(), journal.map((j) => j.id).sort(), 'every entry exactly once');
  for (const e of entries) {
    assert.ok(e.leafHash.equals(H_LEAF(Buffer.from(e.leaf, 'utf8'))), `leaf ${e.index}`);
    assert.equal((JSON.parse(e.leaf) as { index: number }).index, e.index);
  }
  const { signer } = await logIdentity(h.deps);
  const cps = await t.checkpoints(0, 1_000_000);
  assert.ok(cps.length > 0);
  assert.equal(cps[cps.length - 1]!.size, entries.length, JSON.stringify({ cps: cps.map((c) => c.size), head: await t.size() }));
  let prev: { size: number; root: Buffer } | null = null;
  for (const c of cps) {
    const cp = parseCheckpoint(openNote(c.note, signer.verifierKey()));
    assert.equal(cp.origin, 'cambio/localhost');
    assert.equal(cp.size, c.size);
    assert.ok(cp.root.equals(mthOfHashes(entries.slice(0, c.size).map((e) => e.leafHash))), `root at ${c.size}`);
    if (prev) {
      const { consistencyProof } = await import('../src/domain/transparency/merkle.ts');
      assert.ok(
        verifyConsistency(prev.size, cp.size, prev.root, cp.root, await consistencyProof(prev.size, cp.size, t)),
        `${prev.size} → ${cp.size}`,
      );
    }
    prev = cp;
  }
  return { size: entries.length, entryIds: entries.map((e) => e.entryId) };
}

for (const backend of backends()) {
  describe(`journal log (${backend})`, () => {
    test('committed entries join the log in order; every checkpoint is signed, its root recomputes, each is consistent with the next', async () => {
      const h = await makeHarness({ backend });
      try {
        await listAssets(h, { USD: 2 });
        const org = await seedOrg(h, { balances: { USD: 1000n } });
        // An adjustment is two entries: the organization's (against platform:clearing) and the platform's own.
        await appendUntil(h, 2);
        for (let i = 1; i <= 5; i++) await adjust(h, org.orgId, BigInt(i));
        await appendUntil(h, 12);
        await adjust(h, org.orgId, -3n);
        await appendUntil(h, 14);
        const checkpoints = (await h.store.transparency.checkpoints(0, 100)).map((c) => c.size);
        assert.equal(await appendJournalLog(h.deps), 0);
        assert.deepEqual(
          (await h.store.transparency.checkpoints(0, 100)).map((c) => c.size),
          checkpoints,
          'nothing new: no new checkpoint',
        );
        const log = await checkWholeLog(h);
        assert.equal(log.size, 14);
        // The leaf is the entry as docs/transparency.md writes it.
        const [first] = await h.store.transparency.entries(0, 1);
        const ledger = await h.call(org.key, 'GET', '/ledger?limit=100');
        const row = (ledger.body.data as Array<{ entryId: string; createdAt: string }>).find((r) => r.entryId === first!.entryId)!;
        assert.equal(
          first!.leaf,
          `{"index":0,"entryId":"${row.entryId}","createdAt":"${row.createdAt}","kind":"adjustment","postings":[` +
            `{"account":"org:${org.orgId}:available","assetSymbol":"USD","amountMinor":"1000"},{"account":"platform:clearing","assetSymbol":"USD","amountMinor":"-1000"}]}`,
        );
        // The platform's own entry carries the amount on to platform:market, touching no organization.
        const second = (await h.store.transparency.entries(1, 1))[0]!;
        assert.match(
          second.leaf,
          /"kind":"clearing","postings":\[\{"account":"platform:clearing","assetSymbol":"USD","amountMinor":"1000"\},\{"account":"platform:market","assetSymbol":"USD","amountMinor":"-1000"\}\]\}$/,
        );
        assert.ok(checkpoints.includes(2) && checkpoints.includes(14));
      } finally {
        await h.close();
      }
    });

    test('a restart keeps the log and continues it: same leaves, consistent checkpoints, one key', async () => {
      const dir = backend === 'pglite' ? mkdtempSync(join(tmpdir(), 'cambio-log-')) : undefined;
      const pg = backend === 'postgres' ? await createPgDatabase() : undefined;
      const storage = pg ? { databaseUrl: pg.url } : { dataDir: dir! };
      try {
        const a = await makeHarness({ backend, storage });
        await listAssets(a, { USD: 2 });
        const org = await seedOrg(a, { balances: { USD: 50n } });
        await adjust(a, org.orgId, 7n);
        await appendUntil(a, 4);
        const before = await a.store.transparency.entries(0, 100);
        const keyBefore = (await logIdentity(a.deps)).signer.verifierKey();
        await a.close();

        const b = await makeHarness({ backend, storage });
        try {
          assert.equal((await logIdentity(b.deps)).signer.verifierKey(), keyBefore, 'the sealed key is kept');
          await adjust(b, org.orgId, 9n);
          await appendUntil(b, 6);
          const after = await b.store.transparency.entries(0, 100);
          assert.deepEqual(
            after.slice(0, before.length).map((e) => e.leafHash.toString('hex')),
            before.map((e) => e.leafHash.toString('hex')),
          );
          assert.equal((await checkWholeLog(b)).size, 6);
        } finally {
          await b.close();
        }
      } finally {
        if (dir) rmSync(dir, { recursive: true, force: true });
        await pg?.drop();
      }
    });

    test('a log of many tiles: every leaf proves into every checkpoint, and every checkpoint is consistent with every later one', async () => {
      const h = await makeHarness({ backend });
      try {
        await listAssets(h, { USD: 2 });
        const org = await seedOrg(h, { balances: { USD: 1_000_000n } });
        const { signCheckpoint } = await logIdentity(h.deps);
        // Entries written straight into the journal, appended in uneven batches so checkpoints fall inside,
        // at and across the 16-leaf blocks whose lower subtrees are folded from the leaves.
        const batches = [1, 2, 13, 16, 1, 31, 17, 64, 5];
        let n = 2;
        for (const size of batches) {
          await h.store.db.transaction().execute(async (tx) => {
            for (let i = 0; i < size; i++)
              await postEntry(
                tx,
                `je_tile_${n + i}`,
                adjustmentEntries({ organizationId: org.orgId, assetSymbol: 'USD', amount: BigInt(n + i), memo: 'tiles' })[0],
                new Date(),
              );
          });
          // Until this batch is in: on a PostgreSQL server shared with other work an entry waits until every
          // older transaction is over (migration 022), so a run may find nothing to take for a while.
          const journal = await h.store.db
            .selectFrom('journal_entries')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow();
          for (let tries = 0; (await h.store.transparency.size()) < Number(journal.n); tries++) {
            if (tries > 2000) assert.fail(`the log never took batch ${size}`);
            if ((await appendLogBatch(h.deps, signCheckpoint, size)) === 0) await new Promise((r) => setTimeout(r, 20));
          }
          n += size;
        }
        const log = await checkWholeLog(h);
        assert.equal(log.size, n);
        const { consistencyProof, inclusionProof } = await import('../src/domain/transparency/merkle.ts');
        const { verifyInclusion } = await import('./transparency-verifier.ts');
        const leaves = (await h.store.transparency.entries(0, 1000)).map((e) => e.leafHash);
        const cps = await h.store.transparency.checkpoints(0, 1000);
        for (const c of cps) {
          const root = mthOfHashes(leaves.slice(0, c.size));
          for (let m = 0; m < c.size; m++)
            assert.ok(
              verifyInclusion(m, c.size, leaves[m]!, await inclusionProof(m, c.size, h.store.transparency), root),
              `leaf ${m} in ${c.size}`,
            );
          for (const later of cps.filter((x) => x.size > c.size)) {
            assert.ok(
              verifyConsistency(
                c.size,
                later.size,
                root,
                mthOfHashes(leaves.slice(0, later.size)),
                await consistencyProof(c.size, later.size, h.store.transparency),
              ),
              `${c.size} → ${later.size}`,
            );
          }
        }
        // Only subtrees of 16 leaves and more are kept as rows; the rest is folded from the leaves.
        const levels = await sql<{ level: number }>`select distinct level from log_nodes order by level`.execute(h.store.db);
        assert.deepEqual(
          levels.rows.map((r) => Number(r.level)),
          [4, 5, 6, 7],
        );
      } finally {
        await h.close();
      }
    });

    test('two appenders over one store, racing each other and the writers, make one log: no gap, no fork', async () => {
      const pg = backend === 'postgres' ? await createPgDatabase() : undefined;
      const a = await makeHarness({ backend, ...(pg ? { storage: { databaseUrl: pg.url } } : {}) });
      // PostgreSQL: a second instance over the same database. PGlite is one process's store: both appenders run in it.
      const b = pg ? await makeHarness({ backend, storage: { databaseUrl: pg.url } }) : a;
      try {
        await listAssets(a, { USD: 2 });
        const org = await seedOrg(a, { balances: { USD: 1_000_000n } });
        const writers = Promise.all(
          [0, 1, 2, 3].map(async (w) => {
            for (let i = 0; i < 10; i++) await adjust(w % 2 ? b : a, org.orgId, BigInt(w * 100 + i + 1));
          }),
        );
        let writing = true;
        void writers.finally(() => {
          writing = false;
        });
        // Each appender runs again and again while the writers write, as the background task does (without its pause).
        const appender = async (h: Harness) => {
          while (writing) {
            await appendJournalLog(h.deps);
            await new Promise((r) => setImmediate(r));
          }
          await appendJournalLog(h.deps);
        };
        await Promise.all([writers, appender(a), appender(b), appender(a)]);
        await appendUntil(b, 82);
        const log = await checkWholeLog(a);
        assert.equal(log.size, 82);
        if (b !== a) assert.deepEqual((await checkWholeLog(b)).entryIds, log.entryIds);
      } finally {
        if (b !== a) await b.close();
        await a.close();
        await pg?.drop();
      }
    });

    if (backend === 'postgres') {
      test('an entry whose transaction is still open holds back the entries committed after it began, and joins the log before them', async () => {
        const h = await makeHarness({ backend });
        try {
          await listAssets(h, { USD: 2, BTC: 8 });
          const org = await seedOrg(h, { balances: { USD: 100n } });
          const other = await seedOrg(h, { balances: { USD: 100n } });
          await appendUntil(h, 4);
          const { promise: gate, open: release } = latch();
          const { promise: wrote, open: written } = latch();
          const held = h.store.db.transaction().execute(async (tx) => {
            await postEntry(
              tx,
              'je_held_open',
              adjustmentEntries({ organizationId: org.orgId, assetSymbol: 'BTC', amount: 1n, memo: 'slow' })[0],
              new Date(),
            );
            written();
            await gate;
          });
          await wrote;
          try {
            // Commits while the first is still open (another organization and asset: no row in common, no lock to wait for).
            await adjust(h, other.orgId, 2n);
            assert.equal(await appendJournalLog(h.deps), 0, 'the later entry waits for the open transaction');
          } finally {
            // Never left open: an open transaction holds back every log (and every event reader) on the server.
            release();
            await held;
          }
          await appendUntil(h, 7);
          const entries = await h.store.transparency.entries(0, 10);
          assert.equal(entries[4]!.entryId, 'je_held_open', 'the entry of the older transaction comes first');
          await checkWholeLog(h);
        } finally {
          await h.close();
        }
      });
    }
  });
}

test('the log name and the signing key come from the configuration', async () => {
  const seed = Buffer.alloc(32, 7).toString('base64');
  const h = await makeHarness({ env: { CAMBIO_LOG_NAME: 'books.example', CAMBIO_LOG_SIGNING_KEY: seed } });
  try {
    const id = await logIdentity(h.deps);
    assert.equal(id.origin, 'cambio/books.example');
    assert.match(id.signer.verifierKey(), /^cambio\/books\.example\+[0-9a-f]{8}\+/);
    // Nothing sealed was stored: the key is the one provided.
    const stored = await sql<{ n: string }>`select count(*)::text as n from settings where key = 'log_signing_key'`.execute(h.store.db);
    assert.equal(stored.rows[0]!.n, '0');
  } finally {
    await h.close();
  }
});
