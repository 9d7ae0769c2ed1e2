import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { backends, listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';
import { appendUntil } from './log-append.ts';
import { H_LEAF, openNote, parseCheckpoint, verifyConsistency, verifyInclusion } from './transparency-verifier.ts';

const text = async (h: Harness, url: string) => {
  const r = await h.app.inject({ method: 'GET', url });
  assert.equal(r.statusCode, 200, r.body);
  assert.match(String(r.headers['content-type']), /^text\/plain/);
  return r.body;
};
const pub = async (h: Harness, url: string) => {
  const r = await h.app.inject({ method: 'GET', url, headers: { 'x-lang': 'en' } });
  return { status: r.statusCode, body: r.json() as { data: { from: number; to: number; proof: string[] }; code: string | null } };
};
/** The latest checkpoint as a client sees it: fetched, its signature checked against the published key. */
const checkpoint = async (h: Harness) =>
  parseCheckpoint(openNote(await text(h, '/transparency/checkpoint'), (await text(h, '/transparency/key')).trim()));
const adjust = async (h: Harness, orgId: string, amount: bigint) => {
  const r = await h.op('POST', `/organizations/${orgId}/adjustments`, {
    assetSymbol: 'USD',
    amountMinor: amount.toString(),
    reason: 'proof test',
  });
  assert.equal(r.status, 201, r.raw);
};

for (const backend of backends()) {
  describe(`journal log over HTTP (${backend})`, () => {
    test('a client proves each of its entries is in the signed log, with nothing but the public key and the API', async () => {
      const h = await makeHarness({ backend });
      try {
        // Before any entry: size 0, the root of the empty tree, signed.
        const empty = await checkpoint(h);
        assert.deepEqual(
          { origin: empty.origin, size: empty.size, root: empty.root.toString('hex') },
          { origin: 'cambio/localhost', size: 0, root: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
        );
        assert.match(await text(h, '/transparency/key'), /^cambio\/localhost\+[0-9a-f]{8}\+[A-Za-z0-9+/]{44}\n$/);

        await listAssets(h, { USD: 2 });
        const a = await seedOrg(h, { balances: { USD: 500n } });
        const b = await seedOrg(h, { balances: { USD: 900n } });
        await adjust(h, a.orgId, -120n);
        // Each adjustment is two entries: the organization's, against platform:clearing, and the platform's own.
        await appendUntil(h, 6);
        const first = await checkpoint(h);
        await adjust(h, a.orgId, 33n);
        await appendUntil(h, 8);
        const cp = await checkpoint(h);
        assert.equal(cp.size, 8);

        const ledger = await h.call(a.key, 'GET', '/ledger?limit=100');
        const rows = ledger.body.data as Array<{ entryId: string; amountMinor: string; createdAt: string; account: string }>;
        assert.equal(rows.length, 3);
        for (const row of rows) {
          const r = await h.call(a.key, 'GET', `/ledger/${row.entryId}/proof`);
          assert.equal(r.status, 200, r.raw);
          const p = r.body.data as { leafIndex: number; treeSize: number; leaf: string; auditPath: string[] };
          assert.equal(p.treeSize, cp.size);
          const leaf = JSON.parse(p.leaf) as {
            index: number;
            entryId: string;
            createdAt: string;
            postings: Array<{ account: string; amountMinor: string }>;
          };
          assert.equal(leaf.index, p.leafIndex);
          assert.equal(leaf.entryId, row.entryId);
          assert.equal(leaf.createdAt, row.createdAt, "createdAt equals the ledger row's");
          assert.ok(
            leaf.postings.some((x) => x.account === `org:${a.orgId}:${row.account}` && x.amountMinor === row.amountMinor),
            "the leaf holds the row's movement",
          );
          for (const x of leaf.postings)
            assert.match(x.account, new RegExp(`^(org:${a.orgId}:(available|held)|platform:clearing)$`), 'own accounts and clearing only');
          const path = p.auditPath.map((x) => Buffer.from(x, 'hex'));
          assert.ok(
            verifyInclusion(p.leafIndex, p.treeSize, H_LEAF(Buffer.from(p.leaf, 'utf8')), path, cp.root),
            `inclusion of ${row.entryId}`,
          );
          // A flipped bit anywhere fails.
          if (path.length > 0) {
            const bad = path.map((x) => Buffer.from(x));
            bad[0]![0]! ^= 1;
            assert.ok(!verifyInclusion(p.leafIndex, p.treeSize, H_LEAF(Buffer.from(p.leaf, 'utf8')), bad, cp.root));
          }
          assert.ok(
            !verifyInclusion(
              p.leafIndex,
              p.treeSize,
              H_LEAF(Buffer.from(p.leaf.replace(row.amountMinor, `${row.amountMinor}0`), 'utf8')),
              path,
              cp.root,
            ),
          );
        }

        // A proof in an older checkpoint, and that checkpoint consistent with the latest.
        const oldest = rows[rows.length - 1]!;
        const older = await h.call(a.key, 'GET', `/ledger/${oldest.entryId}/proof?treeSize=${first.size}`);
        assert.equal(older.status, 200, older.raw);
        assert.ok(
          verifyInclusion(
            older.body.data.leafIndex,
            first.size,
            H_LEAF(Buffer.from(older.body.data.leaf, 'utf8')),
            older.body.data.auditPath.map((x: string) => Buffer.from(x, 'hex')),
            first.root,
          ),
        );
        const c = await pub(h, `/transparency/consistency?from=${first.size}&to=${cp.size}`);
        assert.equal(c.status, 200);
        assert.deepEqual([c.body.data.from, c.body.data.to], [first.size, cp.size]);
        assert.ok(
          verifyConsistency(
            first.size,
            cp.size,
            first.root,
            cp.root,
            c.body.data.proof.map((x) => Buffer.from(x, 'hex')),
          ),
        );
        assert.deepEqual((await pub(h, `/transparency/consistency?from=${cp.size}&to=${cp.size}`)).body.data.proof, []);
        for (const q of ['from=0&to=4', 'from=3&to=2', `from=1&to=${cp.size + 1}`]) {
          const bad = await pub(h, `/transparency/consistency?${q}`);
          assert.deepEqual([bad.status, bad.body.code], [422, 'transparency.bad_tree_size'], q);
        }

        // Own entries only; a tree size that is no checkpoint's, or too small for the leaf, is refused.
        const bEntry = ((await h.call(b.key, 'GET', '/ledger')).body.data as Array<{ entryId: string }>)[0]!.entryId;
        const other = await h.call(a.key, 'GET', `/ledger/${bEntry}/proof`);
        assert.deepEqual([other.status, other.body.code], [404, 'transparency.entry_not_found']);
        assert.equal((await h.call(a.key, 'GET', '/ledger/je_nope/proof')).status, 404);
        const newest = rows[0]!;
        for (const size of [2, cp.size + 1, first.size]) {
          const r = await h.call(a.key, 'GET', `/ledger/${newest.entryId}/proof?treeSize=${size}`);
          assert.deepEqual([r.status, r.body.code], [422, 'transparency.bad_tree_size'], `treeSize ${size}`);
        }

        // Written, not yet logged: 409 with Retry-After.
        await adjust(h, a.orgId, 1n);
        const fresh = ((await h.call(a.key, 'GET', '/ledger')).body.data as Array<{ entryId: string }>)[0]!.entryId;
        const wait = await h.call(a.key, 'GET', `/ledger/${fresh}/proof`);
        assert.deepEqual([wait.status, wait.body.code], [409, 'transparency.not_yet_logged']);
        assert.equal(wait.headers['retry-after'], '2');
        await appendUntil(h, 10);
        assert.equal((await h.call(a.key, 'GET', `/ledger/${fresh}/proof`)).status, 200);
      } finally {
        await h.close();
      }
    });

    test('the operator lists every checkpoint and every entry, oldest first', async () => {
      const h = await makeHarness({ backend });
      try {
        await listAssets(h, { USD: 2 });
        const a = await seedOrg(h, { balances: { USD: 5n } });
        await appendUntil(h, 2);
        await adjust(h, a.orgId, 6n);
        await appendUntil(h, 4);
        const cps = await h.op('GET', '/transparency/checkpoints');
        assert.equal(cps.status, 200, cps.raw);
        const list = cps.body.data as Array<{ treeSize: number; rootHash: string; note: string }>;
        assert.deepEqual(
          list.map((c) => c.treeSize),
          [2, 4],
        );
        for (const c of list)
          assert.equal(parseCheckpoint(openNote(c.note, (await text(h, '/transparency/key')).trim())).root.toString('hex'), c.rootHash);
        const entries = await h.op('GET', '/transparency/entries?from=3&limit=5');
        assert.equal(entries.status, 200, entries.raw);
        const [e] = entries.body.data as Array<{ index: number; entryId: string; leaf: string; leafHash: string }>;
        assert.equal(entries.body.data.length, 1);
        assert.equal(e!.index, 3);
        assert.equal(H_LEAF(Buffer.from(e!.leaf, 'utf8')).toString('hex'), e!.leafHash);
        assert.equal((await h.op('GET', '/transparency/entries?limit=1001')).status, 400);
        assert.equal((await h.app.inject({ method: 'GET', url: '/operator/v1/transparency/entries' })).statusCode, 401);
      } finally {
        await h.close();
      }
    });
  });
}
