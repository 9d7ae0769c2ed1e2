import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends, eventsSettled, listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';

/** Ledger and event ids say nothing of other organizations: opaque, stable, and still cursors. */
for (const backend of backends()) {
  describe(`opaque ledger and event ids [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
      await listAssets(h, { USD: 2 });
    });
    after(async () => h?.close());
    const fund = (orgId: string, amount: string) =>
      h.op('POST', `/organizations/${orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: amount, reason: 'funding' });

    test("posting ids are opaque (not counters), the CSV shows the same ids, and another organization's postings leave no trace", async () => {
      const a = await seedOrg(h);
      const b = await seedOrg(h);
      await fund(a.orgId, '100');
      for (let i = 0; i < 3; i++) await fund(b.orgId, '7');
      await fund(a.orgId, '200');
      const rows = (await h.call(a.key, 'GET', '/ledger')).body.data as Array<{ id: string; amountMinor: string }>;
      assert.deepEqual(
        rows.map((r) => r.amountMinor),
        ['200', '100'],
      );
      for (const r of rows) assert.match(r.id, /^pst_[a-z2-7]{26}$/);
      const csv = (await h.call(a.key, 'GET', '/ledger.csv')).raw;
      for (const r of rows) assert.ok(csv.includes(`,${r.id},`), `${r.id} in the CSV`);
    });

    test('event ids are opaque and work as the after= cursor; a made-up one is refused', async () => {
      const a = await seedOrg(h);
      const b = await seedOrg(h);
      const bank = (n: string) => ({
        label: `L${n}`,
        assetSymbol: 'USD',
        bankName: 'Banco',
        accountKind: 'checking',
        accountNumber: `9999-${n}`,
        holderName: 'Acme',
        holderDocument: `D${n}`,
      });
      assert.equal((await h.call(a.key, 'POST', '/withdrawals/destinations/bank', bank('0001'))).status, 201);
      for (const n of ['0002', '0003']) await h.call(b.key, 'POST', '/withdrawals/destinations/bank', bank(n));
      assert.equal((await h.call(a.key, 'POST', '/withdrawals/destinations/bank', bank('0004'))).status, 201);
      await eventsSettled(h, a.orgId);
      const all = (await h.call(a.key, 'GET', '/events')).body.data as Array<{ id: string; data: { label: string } }>;
      assert.deepEqual(
        all.map((e) => e.data.label),
        ['L0001', 'L0004'],
      );
      for (const e of all) assert.match(e.id, /^evt_[a-z2-7]{26}$/);
      const rest = (await h.call(a.key, 'GET', `/events?after=${all[0]!.id}`)).body.data as Array<{ id: string }>;
      assert.deepEqual(
        rest.map((e) => e.id),
        [all[1]!.id],
      );
      const numeric = await h.call(a.key, 'GET', '/events?after=evt_1');
      assert.deepEqual([numeric.status, numeric.body.code], [400, 'request.invalid_query']);
      const forged = await h.call(a.key, 'GET', '/events?after=evt_aaaaaaaaaaaaaaaaaaaaaaaaaa');
      assert.deepEqual([forged.status, forged.body.code], [404, 'events.cursor_not_found']);
      const theirs = (await h.call(b.key, 'GET', '/events')).body.data as Array<{ id: string }>;
      const cross = await h.call(a.key, 'GET', `/events?after=${theirs[0]!.id}`);
      assert.deepEqual([cross.status, cross.body.code], [404, 'events.cursor_not_found'], "another organization's event is no cursor");
    });
  });
}
