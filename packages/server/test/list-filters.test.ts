import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ManualClock } from '../src/domain/ports.ts';
import { backends, btcUsdMarket, makeHarness, seedOrg, type Harness, type SeededOrg } from './harness.ts';

/** Filters on the client's lists: state, a creation window; the ledger by asset and date. */
for (const backend of backends()) {
  describe(`client list filters [${backend}]`, () => {
    let h: Harness;
    let o: SeededOrg;
    const ids: Record<string, string> = {};
    let t0: Date;
    let t1: Date;
    before(async () => {
      h = await makeHarness({ backend, manualClock: true, env: { CAMBIO_QUOTE_TTL_MS: '15000' } });
      await btcUsdMarket(h);
      o = await seedOrg(h, { balances: { BTC: 10_000_000n, USD: 5000n } });
      const place = async () => {
        const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
        const r = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
        assert.equal(r.status, 201, r.raw);
        return r.body.data.id as string;
      };
      const clock = h.clock as ManualClock;
      t0 = clock.now();
      ids.completed = await place();
      assert.equal((await h.op('POST', `/orders/${ids.completed}/approve`)).status, 200);
      clock.advance(60_000);
      t1 = clock.now();
      ids.rejected = await place();
      assert.equal((await h.op('POST', `/orders/${ids.rejected}/reject`, { reason: 'no' })).status, 200);
      clock.advance(60_000);
      ids.pending = await place();
    });
    after(async () => h?.close());

    test('GET /orders?state= returns only that state', async () => {
      const states = async (q: string) =>
        (await h.call(o.key, 'GET', `/orders?${q}`)).body.data.map((x: { id: string; state: string }) => `${x.state}:${x.id}`);
      assert.deepEqual(await states('state=pending_approval'), [`pending_approval:${ids.pending}`]);
      assert.deepEqual(await states('state=completed'), [`completed:${ids.completed}`]);
      assert.deepEqual(await states('state=rejected'), [`rejected:${ids.rejected}`]);
      const r = await h.call(o.key, 'GET', '/orders?state=pending_approval');
      assert.equal(r.body.pagination.total, 1);
    });

    test('createdFrom is inclusive, createdTo exclusive; a malformed date is 400', async () => {
      const list = async (q: string) => (await h.call(o.key, 'GET', `/orders?${q}`)).body.data.map((x: { id: string }) => x.id);
      assert.deepEqual(await list(`createdFrom=${encodeURIComponent(t1.toISOString())}`), [ids.pending, ids.rejected]);
      assert.deepEqual(await list(`createdTo=${encodeURIComponent(t1.toISOString())}`), [ids.completed]);
      assert.deepEqual(
        await list(
          `createdFrom=${encodeURIComponent(t0.toISOString())}&createdTo=${encodeURIComponent(new Date(t1.getTime() + 1).toISOString())}&state=rejected`,
        ),
        [ids.rejected],
      );
      for (const bad of ['createdFrom=yesterday', 'createdTo=2026-13-01T00:00:00Z', 'createdFrom=2026-11-23']) {
        const r = await h.call(o.key, 'GET', `/orders?${bad}`);
        assert.equal(r.status, 400, bad);
        assert.equal(r.body.code, 'request.invalid_query');
      }
    });

    test('the ledger by asset and by date', async () => {
      const all = (await h.call(o.key, 'GET', '/ledger?limit=100')).body.data as Array<{
        assetSymbol: string;
        kind: string;
        createdAt: string;
      }>;
      const usd = (await h.call(o.key, 'GET', '/ledger?limit=100&assetSymbol=USD')).body.data as typeof all;
      assert.ok(usd.length > 0);
      assert.deepEqual(
        usd,
        all.filter((e) => e.assetSymbol === 'USD'),
      );
      const late = (await h.call(o.key, 'GET', `/ledger?limit=100&assetSymbol=BTC&createdFrom=${encodeURIComponent(t1.toISOString())}`))
        .body.data as typeof all;
      // after t1: the second order's hold and release, the third order's hold
      assert.deepEqual(
        late.map((e) => e.kind),
        ['order_hold', 'order_hold', 'order_release', 'order_release', 'order_hold', 'order_hold'],
      );
      assert.equal((await h.call(o.key, 'GET', '/ledger?assetSymbol=usd')).status, 400);
    });

    test('withdrawals and deposits take the same filters', async () => {
      for (const path of ['/withdrawals', '/deposits']) {
        const r = await h.call(o.key, 'GET', `${path}?state=pending_approval&createdFrom=${encodeURIComponent(t0.toISOString())}`);
        if (path === '/deposits') assert.equal(r.status, 400, 'deposits have no pending_approval');
        else assert.equal(r.status, 200, r.raw);
      }
      assert.equal((await h.call(o.key, 'GET', '/deposits?state=credited')).status, 200);
    });
  });
}
