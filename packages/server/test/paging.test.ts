import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends, listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';

/** docs/design/money-and-states.md: lists are newest first and stable under concurrent inserts within a page walk. */
for (const backend of backends()) {
  describe(`a page walk is anchored at its first page [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
      await listAssets(h, { USD: 2 });
    });
    after(async () => h?.close());

    test("records created during a walk neither repeat nor push a row off a page; the total stays the walk's", async () => {
      const o = await seedOrg(h);
      const adjust = (n: number) =>
        h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: String(n), reason: `r${n}` });
      for (let i = 1; i <= 25; i++) assert.equal((await adjust(i)).status, 201);
      const amounts = (r: { body: { data: Array<{ amountMinor: string }> } }) => r.body.data.map((e) => Number(e.amountMinor));

      const p1 = await h.call(o.key, 'GET', '/ledger?limit=10');
      assert.deepEqual(amounts(p1), [25, 24, 23, 22, 21, 20, 19, 18, 17, 16]);
      const asOf = p1.body.pagination.asOf as string;
      assert.match(asOf, /^[A-Za-z0-9_-]{48}$/, 'opaque');
      assert.deepEqual(p1.body.pagination, { page: 1, limit: 10, total: 25, totalPages: 3, asOf });

      for (let i = 26; i <= 30; i++) assert.equal((await adjust(i)).status, 201); // created during the walk

      const p2 = await h.call(o.key, 'GET', `/ledger?limit=10&page=2&asOf=${asOf}`);
      assert.deepEqual(amounts(p2), [15, 14, 13, 12, 11, 10, 9, 8, 7, 6]);
      assert.deepEqual({ ...p2.body.pagination, asOf: undefined }, { page: 2, limit: 10, total: 25, totalPages: 3, asOf: undefined });
      const p3 = await h.call(o.key, 'GET', `/ledger?limit=10&page=3&asOf=${asOf}`);
      assert.deepEqual(amounts(p3), [5, 4, 3, 2, 1]);
      const past = await h.call(o.key, 'GET', `/ledger?limit=10&page=4&asOf=${asOf}`);
      assert.deepEqual([past.body.data, past.body.pagination.total], [[], 25]);
      // the anchor handed back on a later page still anchors the same walk
      assert.deepEqual(amounts(await h.call(o.key, 'GET', `/ledger?limit=10&page=3&asOf=${past.body.pagination.asOf}`)), [5, 4, 3, 2, 1]);

      // Without the anchor the same page has shifted by the five new records: what the anchor prevents.
      assert.deepEqual(amounts(await h.call(o.key, 'GET', '/ledger?limit=10&page=2')), [20, 19, 18, 17, 16, 15, 14, 13, 12, 11]);
      // A new walk sees everything.
      const fresh = await h.call(o.key, 'GET', '/ledger?limit=10');
      assert.deepEqual([amounts(fresh)[0], fresh.body.pagination.total], [30, 30]);
    });

    test("the same holds for the operator's lists; a malformed anchor is a 400", async () => {
      const before = await h.op('GET', '/audit?limit=5');
      const asOf = before.body.pagination.asOf as string;
      const o = await seedOrg(h); // writes audit rows
      const again = await h.op('GET', `/audit?limit=5&asOf=${asOf}`);
      assert.deepEqual(
        again.body.data.map((a: { id: string }) => a.id),
        before.body.data.map((a: { id: string }) => a.id),
      );
      assert.equal(again.body.pagination.total, before.body.pagination.total);
      assert.ok(o.orgId);
      for (const bad of ['abc', '-1', '1.5', '1234567890123456789012', '12', 'A'.repeat(48)]) {
        const r = await h.op('GET', `/audit?asOf=${bad}`);
        assert.equal(r.status, 400, bad);
        assert.equal(r.body.code, 'request.invalid_query');
      }
    });
  });
}

/** The anchor is opaque, so a client cannot read how much the rest of the platform did. */
describe('the page anchor tells nothing of other organizations', () => {
  let h: Harness;
  before(async () => {
    h = await makeHarness();
    await listAssets(h, { USD: 2 });
  });
  after(async () => h?.close());

  test('two reads of the same list give unrelated anchors; an anchor opens only for its organization and list', async () => {
    const a = await seedOrg(h, { balances: { USD: 100n } });
    const b = await seedOrg(h, { balances: { USD: 100n } });
    const first = (await h.call(a.key, 'GET', '/ledger')).body.pagination.asOf as string;
    // Another organization works a lot in between.
    for (let i = 0; i < 5; i++)
      await h.op('POST', `/organizations/${b.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '1', reason: 'busy' });
    const second = (await h.call(a.key, 'GET', '/ledger')).body.pagination.asOf as string;
    assert.notEqual(first, second, 'a fresh nonce every time');
    assert.doesNotMatch(first, /^[0-9]+$/);
    // Both still anchor a's walk at the same place: nothing of a's changed.
    const walk = async (asOf: string) => (await h.call(a.key, 'GET', `/ledger?asOf=${asOf}`)).body.data.map((e: { id: string }) => e.id);
    assert.deepEqual(await walk(first), await walk(second));
    const other = await h.call(b.key, 'GET', `/ledger?asOf=${first}`);
    assert.equal(other.status, 400, 'another organization cannot use it');
    assert.equal(other.body.code, 'request.invalid_query');
    assert.equal((await h.call(a.key, 'GET', `/orders?asOf=${first}`)).status, 400, 'nor another list');
    assert.equal((await h.op('GET', `/audit?asOf=${first}`)).status, 400, 'nor the operator');
    const tampered = `${first.slice(0, 20)}${first[20] === 'A' ? 'B' : 'A'}${first.slice(21)}`;
    assert.equal((await h.call(a.key, 'GET', `/ledger?asOf=${tampered}`)).status, 400);
  });
});
