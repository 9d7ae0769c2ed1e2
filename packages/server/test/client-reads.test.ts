import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends, listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';

for (const backend of backends()) {
  describe(`client reads [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
      await listAssets(h, { USD: 2, BTC: 8 });
    });
    after(async () => h?.close());

    test('GET /client answers the Client object with the effective permissions', async () => {
      const o = await seedOrg(h, { name: 'Acme', scopes: ['portal:read', 'portal:trade'] });
      const r = await h.call(o.key, 'GET', '/client');
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.data, {
        id: o.orgId,
        name: 'Acme',
        status: 'active',
        canOperate: true,
        permissions: ['portal:read', 'portal:trade'],
        limits: [],
      });
      assert.equal(r.body.success, true);
      assert.equal(r.headers['x-trace-id'], r.body.traceId);
    });

    test('balances show available, held and total per asset with the market decimals', async () => {
      const o = await seedOrg(h, { balances: { USD: 12345n, BTC: 100000000n } });
      const r = await h.call(o.key, 'GET', '/balances');
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.data, [
        { assetSymbol: 'BTC', assetDecimals: 8, amountMinor: '100000000', heldMinor: '0', totalMinor: '100000000' },
        { assetSymbol: 'USD', assetDecimals: 2, amountMinor: '12345', heldMinor: '0', totalMinor: '12345' },
      ]);
    });
  });
}
