import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { takeDailySnapshot } from '../src/usecases/transparency/take-snapshot.ts';
import { backends, listAssets, makeHarness, SECRET, seedOrg, type Harness, type SeededOrg } from './harness.ts';
import { checkLiabilityPath, expectedSalt, type OwnAsset, type OwnPart } from './liabilities-verifier.ts';
import { backgroundTasks } from '../src/background.ts';
import { openNote } from './transparency-verifier.ts';

interface Published {
  snapshotId: string;
  takenAt: string;
  treeSize: number;
  assets: Array<{ assetSymbol: string; assetDecimals: number; rootHash: string; totalMinor: string; leafCount: number }>;
}
interface Own {
  snapshotId: string;
  treeSize: number;
  assets: OwnAsset[];
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
  assert.deepEqual(Object.keys(p), ['snapshotId', 'takenAt', 'treeSize', 'assets']);
  for (const a of p.assets) assert.deepEqual(Object.keys(a), ['assetSymbol', 'assetDecimals', 'rootHash', 'totalMinor', 'leafCount']);
  return p;
};
const own = async (h: Harness, o: SeededOrg): Promise<Own> => {
  const r = await h.call(o.key, 'GET', '/liabilities/latest');
  assert.equal(r.status, 200, r.raw);
  const mine = r.body.data as Own;
  assert.deepEqual(Object.keys(mine), ['snapshotId', 'treeSize', 'assets']);
  for (const a of mine.assets) {
    assert.deepEqual(Object.keys(a), ['assetSymbol', 'amountMinor', 'parts']);
    for (const x of a.parts) assert.deepEqual(Object.keys(x), ['part', 'amountMinor', 'salt', 'leafIndex', 'path']);
  }
  return mine;
};
/** What the client API says the organization is owed per asset: available + held. */
const owedPerAsset = async (h: Harness, o: SeededOrg): Promise<Map<string, bigint>> => {
  const r = await h.call(o.key, 'GET', '/balances');
  const rows = r.body.data as Array<{ assetSymbol: string; amountMinor: string; heldMinor: string }>;
  return new Map(rows.map((b) => [b.assetSymbol, BigInt(b.amountMinor) + BigInt(b.heldMinor)]));
};
/** What the client computes itself: the sum of its ledger rows whose logIndex < treeSize, per asset (zero left out). */
const ownPostingsUnder = async (h: Harness, o: SeededOrg, treeSize: number): Promise<Map<string, bigint>> => {
  const r = await h.call(o.key, 'GET', '/ledger?limit=100');
  const rows = r.body.data as Array<{ assetSymbol: string; amountMinor: string; logIndex: number | null }>;
  const out = new Map<string, bigint>();
  for (const x of rows)
    if (x.logIndex !== null && x.logIndex < treeSize) out.set(x.assetSymbol, (out.get(x.assetSymbol) ?? 0n) + BigInt(x.amountMinor));
  for (const [k, v] of out) if (v === 0n) out.delete(k);
  return out;
};
const saltKey = createHmac('sha256', SECRET).update('cambio liabilities salt v1').digest();
/** Every part of every asset of `mine` checked against the published roots, rebuilt for `organizationId`. */
const checkOwn = (p: Published, mine: Own, organizationId: string): string | null => {
  for (const x of mine.assets) {
    const root = p.assets.find((r) => r.assetSymbol === x.assetSymbol)!;
    const who = { snapshotId: mine.snapshotId, organizationId, assetSymbol: x.assetSymbol };
    let sum = 0n;
    for (const part of x.parts) {
      const why = checkLiabilityPath(who, part, root.rootHash, root.totalMinor);
      if (why) return `${x.assetSymbol} part ${part.part}: ${why}`;
      sum += BigInt(part.amountMinor);
    }
    if (sum.toString() !== x.amountMinor) return `${x.assetSymbol}: parts add up to ${sum}, not ${x.amountMinor}`;
  }
  return null;
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
    test("a snapshot at a log size: amounts are each organization's postings under treeSize, split into parts whose paths reach the published root", async () => {
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
        const orgs = [a, b, c, d, empty];

        // Nothing is logged yet: the snapshot waits for the log to hold every entry committed before it.
        const taken = await h.op('POST', '/liabilities/snapshots');
        assert.equal(taken.status, 201, taken.raw);
        const p = await published(h);
        assert.equal(p.snapshotId, taken.body.data.snapshotId);
        assert.deepEqual(p.assets, taken.body.data.assets);
        assert.equal(p.takenAt, taken.body.data.takenAt);
        assert.equal(p.treeSize, taken.body.data.treeSize);
        const journal = await h.store.db
          .selectFrom('journal_entries')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow();
        assert.equal(p.treeSize, Number(journal.n), 'every entry committed before the snapshot is under its tree size');

        // Totals: the sum over all organizations of available + held, exactly; 2 to 4 leaves per holder.
        const want = new Map<string, bigint>([
          ['BTC', 0n],
          ['USD', 0n],
        ]);
        for (const o of orgs) for (const [asset, amount] of await owedPerAsset(h, o)) want.set(asset, want.get(asset)! + amount);
        assert.deepEqual(
          p.assets.map((x) => [x.assetSymbol, x.assetDecimals, x.totalMinor]),
          [
            ['BTC', 8, '123456789012345678901237067890'],
            ['USD', 2, '190099'],
          ],
        );
        assert.deepEqual(
          p.assets.map((x) => [x.assetSymbol, x.totalMinor]),
          [...want].map(([s, t]) => [s, t.toString()]),
        );

        // Each organization's amounts are its own postings under treeSize (what its ledger rows say), its parts
        // (2 to 4) add up to them, and each part's leaf, rebuilt with its own id and the contract's salt, reaches the root.
        const leaves = new Map<string, number>();
        for (const o of orgs) {
          const mine = await own(h, o);
          assert.equal(mine.snapshotId, p.snapshotId);
          assert.equal(mine.treeSize, p.treeSize);
          const expected = await ownPostingsUnder(h, o, mine.treeSize);
          assert.deepEqual(
            mine.assets.map((x) => [x.assetSymbol, x.amountMinor]),
            [...expected].sort(([x], [y]) => (x < y ? -1 : 1)).map(([s, v]) => [s, v.toString()]),
          );
          assert.deepEqual(
            mine.assets.map((x) => [x.assetSymbol, BigInt(x.amountMinor)]),
            [...(await owedPerAsset(h, o))].filter(([, v]) => v !== 0n).map(([s, v]) => [s, v]),
          );
          for (const x of mine.assets) {
            assert.ok(x.parts.length >= 2 && x.parts.length <= 4, `${x.parts.length} parts`);
            assert.deepEqual(
              x.parts.map((q) => q.part),
              x.parts.map((_, i) => i),
            );
            leaves.set(x.assetSymbol, (leaves.get(x.assetSymbol) ?? 0) + x.parts.length);
            for (const q of x.parts)
              assert.equal(
                q.salt,
                expectedSalt(saltKey, { snapshotId: p.snapshotId, organizationId: o.orgId, assetSymbol: x.assetSymbol }, q.part),
              );
          }
          assert.equal(checkOwn(p, mine, o.orgId), null, o.orgId);
        }
        assert.deepEqual(
          p.assets.map((x) => [x.assetSymbol, x.leafCount]),
          [...leaves].sort(([x], [y]) => (x < y ? -1 : 1)),
          'leafCount counts the real leaves, parts included',
        );
        assert.deepEqual((await own(h, empty)).assets, [], 'an organization owed nothing has no leaf');

        // A leaf names its organization: a's parts do not verify as b's (nor under another snapshot id).
        const mineA = await own(h, a);
        assert.match(checkOwn(p, mineA, b.orgId)!, /root/);
        assert.match(checkOwn(p, { ...mineA, snapshotId: 'liab_other' }, a.orgId)!, /root/);

        // Tampering is refused: a sibling's sum, the amount, the salt, the part's number, a negative or overflowing sum.
        const usd = mineA.assets.find((x) => x.assetSymbol === 'USD')!.parts[0]!;
        const root = p.assets.find((r) => r.assetSymbol === 'USD')!;
        const who = { snapshotId: p.snapshotId, organizationId: a.orgId, assetSymbol: 'USD' };
        const sib0 = usd.path[0]!;
        const rest = usd.path.slice(1);
        const variant = (over: Partial<OwnPart>) => checkLiabilityPath(who, { ...usd, ...over }, root.rootHash, root.totalMinor);
        assert.equal(variant({}), null);
        assert.match(variant({ path: [{ ...sib0, sumMinor: String(BigInt(sib0.sumMinor) + 1n) }, ...rest] })!, /root|total/);
        assert.match(variant({ amountMinor: String(BigInt(usd.amountMinor) + 1n) })!, /root|total/);
        assert.match(variant({ salt: usd.salt.replace(/^./, (ch) => (ch === '0' ? '1' : '0')) })!, /root/);
        assert.match(variant({ part: usd.part + 1 })!, /root/);
        assert.match(variant({ path: [{ ...sib0, sumMinor: '-1' }, ...rest] })!, /not an unsigned/);
        assert.match(variant({ amountMinor: '-5' })!, /not an unsigned/);
        assert.match(variant({ path: [{ ...sib0, sumMinor: (1n << 256n).toString() }, ...rest] })!, /not an unsigned/);
        assert.match(variant({ leafIndex: usd.leafIndex + 2 ** usd.path.length })!, /beyond/);

        // An entry after the snapshot is not in it; the next snapshot, at a larger size, counts it.
        await h.op('POST', `/organizations/${b.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '1', reason: 'later' });
        assert.equal((await own(h, b)).assets[0]!.amountMinor, '99');
        const second = await h.op('POST', '/liabilities/snapshots');
        assert.equal(second.status, 201);
        const p2 = await published(h);
        assert.equal(p2.snapshotId, second.body.data.snapshotId);
        assert.ok(p2.treeSize >= p.treeSize + 2, `${p2.treeSize} after ${p.treeSize}`);
        assert.equal(p2.assets.find((x) => x.assetSymbol === 'USD')!.totalMinor, '190100');
        const list = await h.op('GET', '/liabilities/snapshots');
        assert.equal(list.status, 200);
        assert.deepEqual(
          list.body.data.map((s: { snapshotId: string; daily: boolean; treeSize: number }) => [s.snapshotId, s.daily, s.treeSize]),
          [
            [p2.snapshotId, false, p2.treeSize],
            [p.snapshotId, false, p.treeSize],
          ],
        );
        const mineB = await own(h, b);
        assert.equal(mineB.assets[0]!.amountMinor, '100');
        assert.equal(checkOwn(p2, mineB, b.orgId), null);
      } finally {
        await h.close();
      }
    });

    test('a total past 2^256 − 1 is 422 liabilities.total_too_large, nothing is published, and the daily task alerts', async () => {
      const h = await makeHarness({ backend });
      try {
        await listAssets(h, { USD: 2 });
        const half = 1n << 255n;
        await seedOrg(h, { balances: { USD: half } });
        const o = await seedOrg(h, { balances: { USD: half - 1n } });
        // 2^256 − 1 exactly still fits.
        const fits = await h.op('POST', '/liabilities/snapshots');
        assert.equal(fits.status, 201, fits.raw);
        assert.equal(fits.body.data.assets[0].totalMinor, ((1n << 256n) - 1n).toString());
        await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '1', reason: 'over' });
        const over = await h.op('POST', '/liabilities/snapshots');
        assert.deepEqual([over.status, over.body.code], [422, 'liabilities.total_too_large'], over.raw);
        const list = await h.op('GET', '/liabilities/snapshots');
        assert.equal(list.body.data.length, 1, 'nothing written');
        assert.equal((await published(h)).snapshotId, fits.body.data.snapshotId);

        // The daily task: an error logged and a metric, not a silent failure.
        const task = backgroundTasks.find((t) => t.name === 'daily-liabilities-snapshot')!;
        const logged: Array<{ obj: Record<string, unknown>; msg: string }> = [];
        const failed: string[] = [];
        const logger = { ...console, error: (obj: Record<string, unknown>, msg: string) => logged.push({ obj, msg }) };
        await task.run({
          ...h.deps,
          logger: logger as unknown as typeof h.deps.logger,
          tally: { transition: () => {}, recorded: () => {}, snapshotFailed: (code) => failed.push(code) },
        } as typeof h.deps);
        assert.deepEqual(failed, ['liabilities.total_too_large']);
        assert.equal(logged.length, 1);
        assert.equal(logged[0]!.obj.code, 'liabilities.total_too_large');
        assert.match(logged[0]!.msg, /daily liabilities snapshot could not be taken/);
        const metrics = await h.app.inject({ method: 'GET', url: '/metrics' });
        if (metrics.statusCode === 200) assert.match(metrics.body, /cambio_liabilities_snapshot_failures_total/);
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
        assert.equal(mine.assets[0]!.amountMinor, '700');
        assert.equal(checkOwn(p, mine, o.orgId), null);
      } finally {
        await h.close();
      }
    });
  });
}
