import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listAssets, makeHarness, seedOrg, type Harness } from '../../server/test/harness.ts';
import { appendUntil } from '../../server/test/log-append.ts';
import { Cambio, expectedLiabilities, NotFoundError, openLiabilities, verifyInclusion, verifyLiabilities } from '../src/index.ts';

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
    // Each funding is two entries: the organization's and the platform's own.
    await appendUntil(h, 6);
    const cambio = new Cambio({ apiKey: o.key, baseUrl: base, lang: 'en' });
    const rows = (await cambio.ledger.list()).items;
    assert.equal(rows.length, 2);
    for (const row of rows) {
      const check = await cambio.transparency.verifyEntry(row, { organizationId: o.orgId });
      assert.deepEqual(
        [check.ok, check.problem, check.compared, check.checkpoint?.treeSize, check.checkpoint?.origin],
        [true, null, true, 6, 'cambio/localhost'],
      );
      const idOnly = await cambio.transparency.verifyEntry(row.entryId);
      assert.deepEqual([idOnly.ok, idOnly.compared], [true, false], 'an entry id alone checks the inclusion only');
    }
    // Another organization's id: the leaf does not move its accounts.
    const other = await cambio.transparency.verifyEntry(rows[0]!, { organizationId: 'org_someone_else' });
    assert.equal(other.ok, false);
    assert.match(other.problem!, /but the logged leaf does not move available/);
    const cp = await cambio.transparency.checkpoint();
    const proof = await cambio.transparency.proof(rows[0]!.entryId);
    assert.equal(await verifyInclusion(proof, cp.rootHash), true);
    assert.equal(await verifyInclusion({ ...proof, leaf: proof.leaf.replace('"amountMinor":"', '"amountMinor":"1') }, cp.rootHash), false);
    const flipped = proof.auditPath.map((x, i) => (i === 0 ? (x[0] === '0' ? '1' : '0') + x.slice(1) : x));
    assert.equal(await verifyInclusion({ ...proof, auditPath: flipped }, cp.rootHash), false);
    assert.equal(await verifyInclusion({ ...proof, leafIndex: proof.treeSize }, cp.rootHash), false);
  });

  test('a server that shows a ledger row one unit off what the log holds: the entry check fails naming both amounts', async () => {
    const o = await seedOrg(h, { balances: { USD: 1_000n } });
    await appendUntil(h, (await h.store.transparency.size()) + 2);
    const cambio = new Cambio({ apiKey: o.key, baseUrl: base, lang: 'en' });
    const postings = h.store.accounts.postings.bind(h.store.accounts);
    h.store.accounts.postings = async (...args) => {
      const r = await postings(...args);
      return { ...r, items: r.items.map((p) => ({ ...p, amount: p.amount + 1n })) };
    };
    try {
      const [row] = (await cambio.ledger.list()).items;
      assert.equal(row!.amountMinor, 1_001n);
      const check = await cambio.transparency.verifyEntry(row!, { organizationId: o.orgId });
      assert.equal(check.ok, false, 'the proof itself holds: only the comparison catches it');
      assert.equal(check.problem, 'the row shows available 1001 USD, but the logged leaf moves 1000 USD there');
      assert.equal((await cambio.transparency.verifyEntry(row!.entryId)).ok, true);
    } finally {
      h.store.accounts.postings = postings;
    }
    const [honest] = (await cambio.ledger.list()).items;
    assert.equal((await cambio.transparency.verifyEntry(honest!, { organizationId: o.orgId })).ok, true);
  });

  test("verifyLiabilities: every part reaches the signed roots, rebuilt with the organization's own id, and the amounts equal its own ledger under treeSize", async () => {
    const o = await seedOrg(h, { balances: { USD: 123_45n, BTC: 2n } });
    const other = await seedOrg(h, { balances: { USD: 123_45n } });
    const cambio = new Cambio({ apiKey: o.key, baseUrl: base, lang: 'en' });
    await assert.rejects(
      cambio.transparency.ownLiabilities(),
      (e: unknown) => e instanceof NotFoundError && e.code === 'liabilities.no_snapshot',
    );
    assert.equal((await h.op('POST', '/liabilities/snapshots')).status, 201);
    const mine = await cambio.transparency.verifyMyLiabilities(cambio);
    assert.equal(mine.ok, true, JSON.stringify(mine.assets.map((a) => a.problem)));
    assert.deepEqual(
      mine.assets.map((a) => [a.assetSymbol, a.amountMinor, a.expectedMinor, a.ok]),
      [
        ['BTC', 2n, 2n, true],
        ['USD', 12_345n, 12_345n, true],
      ],
    );

    const published = mine.published;
    const own = await cambio.transparency.ownLiabilities();
    assert.equal(own.treeSize, published.treeSize);
    const expected = await expectedLiabilities(cambio, own.treeSize);
    assert.deepEqual(expected.amounts, { BTC: 2n, USD: 12_345n });
    assert.equal((await verifyLiabilities(published, own, expected)).ok, true);

    // One unit short, one more, or an asset missing: refused, naming the asset and both amounts.
    const short = await verifyLiabilities(published, own, { ...expected, amounts: { ...expected.amounts, USD: 12_346n } });
    assert.equal(short.ok, false);
    assert.equal(
      short.assets.find((a) => a.assetSymbol === 'USD')!.problem,
      'USD: the snapshot counts 12345, but 12346 is owed at log size ' + own.treeSize,
    );
    const missing = await verifyLiabilities(published, { ...own, assets: own.assets.filter((a) => a.assetSymbol !== 'BTC') }, expected);
    assert.equal(missing.ok, false);
    assert.match(missing.assets.find((a) => a.assetSymbol === 'BTC')!.problem!, /^BTC: no leaf, but 2 is owed/);
    const none = await verifyLiabilities(published, { ...own, assets: [] }, expected);
    assert.equal(none.ok, false, 'no leaves at all is not ok');
    // Another organization's leaves (same USD balance) do not verify as this one's: the leaf names its organization.
    const theirs = await new Cambio({ apiKey: other.key, baseUrl: base, lang: 'en' }).transparency.ownLiabilities();
    const swapped = await verifyLiabilities(
      published,
      { ...own, assets: [...theirs.assets, own.assets.find((a) => a.assetSymbol === 'BTC')!] },
      expected,
    );
    assert.match(swapped.assets.find((a) => a.assetSymbol === 'USD')!.problem!, /root/);

    const usd = own.assets.find((a) => a.assetSymbol === 'USD')!;
    const part = usd.parts[0]!;
    assert.ok(part.path.length > 0 && usd.parts.length >= 2 && usd.parts.length <= 4);
    const withPart = (over: Partial<typeof part>, amountMinor = usd.amountMinor) =>
      verifyLiabilities(
        published,
        { ...own, assets: [{ ...usd, amountMinor, parts: [{ ...part, ...over }, ...usd.parts.slice(1)] }] },
        {
          ...expected,
          amounts: { USD: BigInt(amountMinor) },
        },
      );
    const sib = part.path[0]!;
    const rest = part.path.slice(1);
    assert.equal((await withPart({})).ok, true);
    assert.equal((await withPart({ path: [{ ...sib, sumMinor: BigInt(sib.sumMinor) + 1n }, ...rest] })).ok, false);
    assert.match((await withPart({ path: [{ ...sib, sumMinor: -1n }, ...rest] })).assets[0]!.problem!, /not an unsigned 256-bit/);
    assert.match((await withPart({ path: [{ ...sib, sumMinor: (1n << 256n) - 1n }, ...rest] })).assets[0]!.problem!, /overflow/);
    assert.match(
      (await withPart({ amountMinor: BigInt(part.amountMinor) + 1n }, BigInt(usd.amountMinor) + 1n)).assets[0]!.problem!,
      /root|total/,
    );
    assert.match((await withPart({ part: part.part + 7 })).assets[0]!.problem!, /root/);
    assert.equal((await verifyLiabilities({ ...published, snapshotId: 'liab_other' }, own, expected)).ok, false);
    assert.equal((await verifyLiabilities(published, own, { ...expected, organizationId: other.orgId })).ok, false);

    // The note's signature is checked: a total changed in transit is refused before any path is.
    const note = await (await fetch(`${base}/transparency/liabilities/latest`)).text();
    const key = await (await fetch(`${base}/transparency/key`)).text();
    assert.deepEqual(await openLiabilities(note, key), published);
    await assert.rejects(
      openLiabilities(
        note.replace(/"totalMinor":"(\d)/, (_m, d: string) => `"totalMinor":"${d === '1' ? '2' : '1'}`),
        key,
      ),
      /no valid signature/,
    );
  });
});
