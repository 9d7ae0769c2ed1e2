import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { takeDailySnapshot } from '../src/usecases/transparency/take-snapshot.ts';
import { backends, listAssets, makeHarness, SECRET, seedOrg, type Harness, type SeededOrg } from './harness.ts';
import { checkLiabilityPath, expectedSalt, type OwnAsset } from './liabilities-verifier.ts';
import { openNote } from './transparency-verifier.ts';

interface Published {
  snapshotId: string;
  takenAt: string;
  assets: Array<{ assetSymbol: string; assetDecimals: number; rootHash: string; totalMinor: string; leafCount: number }>;
}

const text = async (h: Harness, url: string) => {
  const r = await h.app.inject({ method: 'GET', url, headers: { 'x-lang': 'en' } });
  return { status: r.statusCode, body: r.body, type: String(r.headers['content-type']) };
};
/** The published liabilities as anyone reads them: the note fetched, its signature checked against the published key. */
const published = async (h: Harness): Promise<Published> => {
  const note = await text(h, '/transparency/liabilities/latest');
  assert.equal(note.status, 200, note.body);
  assert.match(note.type, /^text\/plain/);
  const body = openNote(note.body, (await text(h, '/transparency/key')).body.trim());
  assert.ok(body.endsWith('\n') && !body.slice(0, -1).includes('\n'), 'the note text is the JSON on one line');
  const p = JSON.parse(body) as Published;
  assert.deepEqual(Object.keys(p), ['snapshotId', 'takenAt', 'assets']);
  for (const a of p.assets) assert.deepEqual(Object.keys(a), ['assetSymbol', 'assetDecimals', 'rootHash', 'totalMinor', 'leafCount']);
  return p;
};
const own = async (h: Harness, o: SeededOrg) => {
  const r = await h.call(o.key, 'GET', '/liabilities/latest');
  assert.equal(r.status, 200, r.raw);
  return r.body.data as { snapshotId: string; assets: OwnAsset[] };
};
/** What the client API says the organization is owed per asset: available + held. */
const owedPerAsset = async (h: Harness, o: SeededOrg): Promise<Map<string, bigint>> => {
  const r = await h.call(o.key, 'GET', '/balances');
  const rows = r.body.data as Array<{ assetSymbol: string; amountMinor: string; heldMinor: string }>;
  return new Map(rows.map((b) => [b.assetSymbol, BigInt(b.amountMinor) + BigInt(b.heldMinor)]));
};
const holdByWithdrawal = async (h: Harness, o: SeededOrg, amountMinor: string) => {
  const d = await h.call(o.key, 'POST', '/withdrawals/destinations/bank', {
    label: 'Main',
    assetSymbol: 'USD',
    bankName: 'Banco Galicia',
    accountKind: 'savings',
    accountNumber: '400000000001',
    holderName: 'Acme SA',
    holderDocument: '30-71234567-1',
  });
  assert.equal(d.status, 201, d.raw);
  assert.equal((await h.op('POST', `/destinations/${d.body.data.id}/register-in-market`)).status, 200);
  const w = await h.call(o.key, 'POST', '/withdrawals', {
    destinationId: d.body.data.id,
    assetSymbol: 'USD',
    assetDecimals: 2,
    amountMinor,
  });
  assert.equal(w.status, 201, w.raw);
};

for (const backend of backends()) {
  describe(`proof of liabilities (${backend})`, () => {
    test("a snapshot's totals are what every organization is owed, and each organization's path reaches the published root", async () => {
      const h = await makeHarness({ backend, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
      try {
        await listAssets(h, { USD: 2, BTC: 8 });
        // Before any snapshot: nothing published, and the client is told so.
        const none = await text(h, '/transparency/liabilities/latest');
        assert.equal(none.status, 404);
        assert.equal(JSON.parse(none.body).code, 'liabilities.no_snapshot');
        const a = await seedOrg(h, { balances: { USD: 150_000n, BTC: 2_500_000n } });
        const b = await seedOrg(h, { balances: { USD: 99n } });
        const c = await seedOrg(h, { balances: { BTC: 123_456_789_012_345_678_901_234_567_890n } });
        const d = await seedOrg(h, { balances: { USD: 40_000n } });
        const empty = await seedOrg(h, {});
        assert.equal((await h.call(a.key, 'GET', '/liabilities/latest')).body.code, 'liabilities.no_snapshot');
        // Part of d's money is held by a withdrawal: it is still owed, so it counts.
        await holdByWithdrawal(h, d, '15000');
        // The platform's own accounts owe nobody: an adjustment's other side is not a liability.
        const orgs = [a, b, c, d, empty];

        const taken = await h.op('POST', '/liabilities/snapshots');
        assert.equal(taken.status, 201, taken.raw);
        const p = await published(h);
        assert.equal(p.snapshotId, taken.body.data.snapshotId);
        assert.deepEqual(p.assets, taken.body.data.assets);
        assert.equal(p.takenAt, taken.body.data.takenAt);

        // Totals: the sum over all organizations of available + held, exactly.
        const want = new Map<string, bigint>([
          ['BTC', 0n],
          ['USD', 0n],
        ]);
        const holders = new Map<string, number>([
          ['BTC', 0],
          ['USD', 0],
        ]);
        for (const o of orgs) {
          for (const [asset, amount] of await owedPerAsset(h, o)) {
            want.set(asset, want.get(asset)! + amount);
            if (amount !== 0n) holders.set(asset, holders.get(asset)! + 1);
          }
        }
        assert.deepEqual(
          p.assets.map((x) => [x.assetSymbol, x.assetDecimals, x.totalMinor, x.leafCount]),
          [
            ['BTC', 8, '123456789012345678901237067890', 2],
            ['USD', 2, '190099', 3],
          ],
        );
        assert.deepEqual(
          p.assets.map((x) => [x.assetSymbol, x.totalMinor, x.leafCount]),
          [...want].map(([s, t]) => [s, t.toString(), holders.get(s)]),
        );

        // Each organization's own leaves verify against the published root and total, with the contract's salt.
        const key = createHmac('sha256', SECRET).update('cambio liabilities salt v1').digest();
        for (const o of orgs) {
          const mine = await own(h, o);
          assert.equal(mine.snapshotId, p.snapshotId);
          const owed = [...(await owedPerAsset(h, o))].filter(([, v]) => v !== 0n);
          assert.deepEqual(
            mine.assets.map((x) => [x.assetSymbol, x.amountMinor]),
            owed.map(([s, v]) => [s, v.toString()]),
          );
          for (const x of mine.assets) {
            const root = p.assets.find((r) => r.assetSymbol === x.assetSymbol)!;
            assert.equal(x.salt, expectedSalt(key, p.snapshotId, o.orgId, x.assetSymbol));
            assert.equal(checkLiabilityPath(x, root.rootHash, root.totalMinor), null, `${o.orgId} ${x.assetSymbol}`);
            assert.equal(x.path.length, root.leafCount <= 1 ? 0 : Math.ceil(Math.log2(root.leafCount)));
          }
        }
        assert.deepEqual((await own(h, empty)).assets, [], 'an organization owed nothing has no leaf');

        // Tampering is refused: a sibling's sum, the amount, the salt, a negative or overflowing sum.
        const [usd] = (await own(h, a)).assets.filter((x) => x.assetSymbol === 'USD');
        const root = p.assets.find((r) => r.assetSymbol === 'USD')!;
        assert.ok(usd && usd.path.length === 2);
        const sib0 = usd.path[0]!;
        const variant = (over: Partial<OwnAsset>) => checkLiabilityPath({ ...usd, ...over }, root.rootHash, root.totalMinor);
        assert.match(variant({ path: [{ ...sib0, sumMinor: String(BigInt(sib0.sumMinor) + 1n) }, usd.path[1]!] })!, /root|total/);
        // Moving value between my leaf and my sibling keeps the total but not the root: sums are in every node's hash.
        assert.match(
          variant({
            amountMinor: String(BigInt(usd.amountMinor) - 1n),
            path: [{ ...sib0, sumMinor: String(BigInt(sib0.sumMinor) + 1n) }, usd.path[1]!],
          })!,
          /root/,
        );
        assert.match(variant({ amountMinor: '1' })!, /root|total/);
        assert.match(variant({ salt: usd.salt.replace(/^./, (ch) => (ch === '0' ? '1' : '0')) })!, /root/);
        assert.match(variant({ path: [{ ...sib0, sumMinor: '-1' }, usd.path[1]!] })!, /not an unsigned/);
        assert.match(variant({ amountMinor: '-5' })!, /not an unsigned/);
        assert.match(variant({ path: [{ ...sib0, sumMinor: ((1n << 256n) - 1n).toString() }, usd.path[1]!] })!, /overflows/);
        assert.match(variant({ path: [{ ...sib0, sumMinor: (1n << 256n).toString() }, usd.path[1]!] })!, /not an unsigned/);
        assert.match(variant({ leafIndex: usd.leafIndex + 4 })!, /beyond/);

        // A later snapshot becomes the latest; the operator lists both, newest first.
        await h.op('POST', `/organizations/${b.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '1', reason: 'later' });
        const second = await h.op('POST', '/liabilities/snapshots');
        assert.equal(second.status, 201);
        const p2 = await published(h);
        assert.equal(p2.snapshotId, second.body.data.snapshotId);
        assert.equal(p2.assets.find((x) => x.assetSymbol === 'USD')!.totalMinor, '190100');
        const list = await h.op('GET', '/liabilities/snapshots');
        assert.equal(list.status, 200);
        assert.deepEqual(
          list.body.data.map((s: { snapshotId: string; daily: boolean }) => [s.snapshotId, s.daily]),
          [
            [p2.snapshotId, false],
            [p.snapshotId, false],
          ],
        );
        const bUsd = (await own(h, b)).assets[0]!;
        assert.equal(bUsd.amountMinor, '100');
        assert.equal(checkLiabilityPath(bUsd, p2.assets.find((x) => x.assetSymbol === 'USD')!.rootHash, '190100'), null);
      } finally {
        await h.close();
      }
    });

    test('the daily snapshot is taken once per UTC day, however many instances race for it', async () => {
      const h = await makeHarness({ backend });
      try {
        await listAssets(h, { USD: 2 });
        const o = await seedOrg(h, { balances: { USD: 700n } });
        let now = new Date('2026-03-01T00:00:03.000Z');
        const deps = { ...h.deps, clock: { now: () => now } };
        const runs = await Promise.all([takeDailySnapshot(deps), takeDailySnapshot(deps), takeDailySnapshot(deps)]);
        assert.equal(runs.filter((r) => r !== null).length, 1, "one of the racing runs takes the day's snapshot");
        assert.equal(await takeDailySnapshot(deps), null, 'later the same day: nothing');
        now = new Date('2026-03-02T00:00:01.000Z');
        const next = await takeDailySnapshot(deps);
        assert.ok(next);
        const list = await h.op('GET', '/liabilities/snapshots');
        assert.deepEqual(
          list.body.data.map((s: { daily: boolean; takenAt: string }) => [s.takenAt, s.daily]),
          [
            ['2026-03-02T00:00:01.000Z', true],
            ['2026-03-01T00:00:03.000Z', true],
          ],
        );
        const mine = await own(h, o);
        assert.equal(mine.snapshotId, next.id);
        const p = await published(h);
        assert.equal(checkLiabilityPath(mine.assets[0]!, p.assets[0]!.rootHash, '700'), null);
      } finally {
        await h.close();
      }
    });
  });
}
