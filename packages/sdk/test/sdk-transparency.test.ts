import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listAssets, makeHarness, seedOrg, type Harness } from '../../server/test/harness.ts';
import { appendUntil } from '../../server/test/log-append.ts';
import { Cambio, NotFoundError, openLiabilities, verifyInclusion, verifyLiabilities } from '../src/index.ts';

describe('SDK: the books a client checks on its own machine, against the real server', () => {
  let h: Harness;
  let base: string;
  before(async () => {
    h = await makeHarness();
    await listAssets(h, { USD: 2, BTC: 8 });
    base = await h.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => h?.close());

  test('each ledger row verifies in the signed log; a changed leaf or path does not', async () => {
    const o = await seedOrg(h, { balances: { USD: 5_000n, BTC: 7n } });
    await seedOrg(h, { balances: { USD: 1n } });
    await appendUntil(h, 3);
    const cambio = new Cambio({ apiKey: o.key, baseUrl: base, lang: 'en' });
    const rows = (await cambio.ledger.list()).items;
    assert.equal(rows.length, 2);
    for (const row of rows) {
      const check = await cambio.transparency.verifyEntry(row.entryId);
      assert.deepEqual(
        [check.ok, check.problem, check.checkpoint?.treeSize, check.checkpoint?.origin],
        [true, null, 3, 'cambio/localhost'],
      );
    }
    const cp = await cambio.transparency.checkpoint();
    const proof = await cambio.transparency.proof(rows[0]!.entryId);
    assert.equal(await verifyInclusion(proof, cp.rootHash), true);
    assert.equal(await verifyInclusion({ ...proof, leaf: proof.leaf.replace('"amountMinor":"', '"amountMinor":"1') }, cp.rootHash), false);
    const flipped = proof.auditPath.map((x, i) => (i === 0 ? (x[0] === '0' ? '1' : '0') + x.slice(1) : x));
    assert.equal(await verifyInclusion({ ...proof, auditPath: flipped }, cp.rootHash), false);
    assert.equal(await verifyInclusion({ ...proof, leafIndex: proof.treeSize }, cp.rootHash), false);
  });

  test("verifyLiabilities: the organization's leaves reach the published, signed roots; tampered, negative or overflowing sums are refused", async () => {
    const o = await seedOrg(h, { balances: { USD: 123_45n, BTC: 2n } });
    const cambio = new Cambio({ apiKey: o.key, baseUrl: base, lang: 'en' });
    await assert.rejects(
      cambio.transparency.ownLiabilities(),
      (e: unknown) => e instanceof NotFoundError && e.code === 'liabilities.no_snapshot',
    );
    assert.equal((await h.op('POST', '/liabilities/snapshots')).status, 201);
    const mine = await cambio.transparency.verifyMyLiabilities();
    assert.equal(mine.ok, true, JSON.stringify(mine.assets.map((a) => a.problem)));
    assert.deepEqual(
      mine.assets.map((a) => [a.assetSymbol, a.amountMinor, a.ok]),
      [
        ['BTC', 2n, true],
        ['USD', 12_345n, true],
      ],
    );

    const published = mine.published;
    const own = await cambio.transparency.ownLiabilities();
    const usd = own.assets.find((a) => a.assetSymbol === 'USD')!;
    assert.ok(usd.path.length > 0);
    const withPath = (path: typeof usd.path, over: Partial<typeof usd> = {}) =>
      verifyLiabilities(published, { ...own, assets: [{ ...usd, path, ...over }] });
    const sib = usd.path[0]!;
    const rest = usd.path.slice(1);
    assert.equal((await withPath([{ ...sib, sumMinor: sib.sumMinor + 1n }, ...rest])).ok, false);
    assert.match((await withPath([{ ...sib, sumMinor: -1n }, ...rest])).assets[0]!.problem!, /not an unsigned 256-bit/);
    assert.match((await withPath([{ ...sib, sumMinor: (1n << 256n) - 1n }, ...rest])).assets[0]!.problem!, /overflow/);
    assert.match((await withPath(usd.path, { amountMinor: -12_345n })).assets[0]!.problem!, /not an unsigned 256-bit/);
    assert.match((await withPath(usd.path, { amountMinor: 99_999n })).assets[0]!.problem!, /root/);
    assert.equal((await verifyLiabilities({ ...published, snapshotId: 'liab_other' }, own)).ok, false);

    // The note's signature is checked: a total changed in transit is refused before any path is.
    const note = await (await fetch(`${base}/transparency/liabilities/latest`)).text();
    const key = await (await fetch(`${base}/transparency/key`)).text();
    assert.deepEqual(await openLiabilities(note, key), published);
    await assert.rejects(openLiabilities(note.replace(/"totalMinor":"1/, '"totalMinor":"2'), key), /no valid signature/);
  });
});
