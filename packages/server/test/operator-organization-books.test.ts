import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends, listAssets, makeHarness, seedOrg, type Harness, type SeededOrg } from './harness.ts';

// The desk reads one organization's balances and ledger exactly as its members see them on /api/v1.
for (const backend of backends()) {
  describe(`operator reads of an organization's books [${backend}]`, () => {
    let h: Harness;
    let org: SeededOrg;
    before(async () => {
      h = await makeHarness({ backend });
      await listAssets(h, { BTC: 8, USD: 2 });
      await h.op('PUT', '/market/pairs/BTC/USD', {
        midRate: '60000',
        spreadBps: 50,
        feeBps: 10,
        fixedFeeQuoteMinor: '0',
        minBaseMinor: '10000',
        maxBaseMinor: '1000000000',
      });
      org = await seedOrg(h, { balances: { BTC: 200000000n, USD: 123456n } });
      const q = await h.call(org.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '50000000' });
      assert.equal((await h.call(org.key, 'POST', '/orders', { quoteId: q.body.data.id })).status, 201);
    });
    after(async () => {
      await h.close();
    });

    test('balances: available, held and total per asset, the same figures the client reads', async () => {
      const r = await h.op('GET', `/organizations/${org.orgId}/balances`);
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(r.body.data, [
        { assetSymbol: 'BTC', assetDecimals: 8, amountMinor: '150000000', heldMinor: '50000000', totalMinor: '200000000' },
        { assetSymbol: 'USD', assetDecimals: 2, amountMinor: '123456', heldMinor: '0', totalMinor: '123456' },
      ]);
      assert.deepEqual(r.body.data, (await h.call(org.key, 'GET', '/balances')).body.data);
    });

    test('ledger: newest first, paged, with the hold of the order on top', async () => {
      const r = await h.op('GET', `/organizations/${org.orgId}/ledger?limit=2`);
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(
        r.body.data.map((e: { kind: string; account: string; amountMinor: string }) => [e.kind, e.account, e.amountMinor]).sort(),
        [
          ['order_hold', 'available', '-50000000'],
          ['order_hold', 'held', '50000000'],
        ],
      );
      assert.equal(r.body.pagination.total, 4);
      assert.equal(r.body.pagination.totalPages, 2);
    });

    test('the list: newest first, ?search= a part of the name in any case or the whole id, ?status=; a pattern character is literal', async () => {
      const a = (await h.op('POST', '/organizations', { name: 'Zeta 100% Capital', status: 'draft' })).body.data;
      const b = (await h.op('POST', '/organizations', { name: 'zeta_holdings', status: 'active', limits: {} })).body.data;
      const names = async (qs: string) => {
        const r = await h.op('GET', `/organizations${qs}`);
        assert.equal(r.status, 200, r.raw);
        return r.body.data.map((o: { name: string }) => o.name);
      };
      assert.deepEqual(await names('?search=ZETA'), ['zeta_holdings', 'Zeta 100% Capital']);
      assert.deepEqual(await names('?search=ZETA&status=draft'), ['Zeta 100% Capital']);
      assert.deepEqual(await names('?search=%25'), ['Zeta 100% Capital']);
      assert.deepEqual(await names('?search=a_h'), ['zeta_holdings']);
      assert.deepEqual(await names('?search=ta h'), []);
      assert.deepEqual(await names(`?search=${b.id}`), ['zeta_holdings']);
      const all = await h.op('GET', '/organizations?limit=2');
      assert.deepEqual(
        all.body.data.map((o: { id: string }) => o.id),
        [b.id, a.id],
      );
      assert.equal(all.body.data[0].canOperate, true);
      assert.equal((await h.op('GET', '/organizations?status=closed')).status, 400);
    });

    test("orders and withdrawals filter by ?organizationId= (with ?state=); another organization's are not listed", async () => {
      const other = await seedOrg(h, { balances: { BTC: 100000000n } });
      const q = await h.call(other.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
      assert.equal((await h.call(other.key, 'POST', '/orders', { quoteId: q.body.data.id })).status, 201);
      for (const [o, n] of [
        [org, 1],
        [other, 1],
      ] as const) {
        const r = await h.op('GET', `/orders?organizationId=${o.orgId}&state=pending_approval`);
        assert.equal(r.status, 200, r.raw);
        assert.deepEqual(
          r.body.data.map((x: { organizationId: string }) => x.organizationId),
          Array(n).fill(o.orgId),
        );
      }
      assert.equal((await h.op('GET', `/orders?organizationId=${org.orgId}&state=completed`)).body.data.length, 0);
      const w = await h.op('GET', `/withdrawals?organizationId=${org.orgId}`);
      assert.deepEqual([w.status, w.body.data.length], [200, 0]);
    });

    test('an unknown organization is 404; no token is 401; a bad page is 400', async () => {
      for (const path of ['balances', 'ledger']) {
        const r = await h.op('GET', `/organizations/org_nope/${path}`);
        assert.deepEqual([r.status, r.body.code], [404, 'organizations.not_found']);
        const anon = await h.app.inject({ method: 'GET', url: `/operator/v1/organizations/${org.orgId}/${path}` });
        assert.equal(anon.statusCode, 401);
      }
      assert.equal((await h.op('GET', `/organizations/${org.orgId}/ledger?limit=101`)).status, 400);
    });
  });
}
