import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { NO_VENUE_REASON } from '../src/market/unconnected-venue.ts';
import { available, backends, held, listAssets, makeHarness, SECRET, seedOrg, type Harness, type SeededOrg } from './harness.ts';

/** Production mode has no simulated venue: nothing may be credited that no market paid. */
for (const backend of backends()) {
  describe(`production mode without a venue adapter [${backend}]`, () => {
    let h: Harness;
    let o: SeededOrg;
    before(async () => {
      h = await makeHarness({ backend, env: { CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET } });
      await listAssets(h, { USD: 2, BTC: 8 });
      await h.op('PUT', '/market/pairs/BTC/USD', { midRate: '60000', spreadBps: 50, feeBps: 10, fixedFeeQuoteMinor: '0', minBaseMinor: '1000', maxBaseMinor: '100000000' });
      o = await seedOrg(h, { balances: { BTC: 5000000n } });
    });
    after(async () => h?.close());

    test('an approved order fails at the market: hold released, nothing credited', async () => {
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
      assert.equal(q.status, 201, q.raw);
      assert.equal(q.body.data.amountQuoteMinor, '59700'); // priced on the desk's terms: floor(60000 × 0.995 × 10²) × 10⁶ / 10⁸
      const order = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
      assert.equal(order.status, 201, order.raw);
      assert.equal(await held(h, o.key, 'BTC'), 1000000n);
      const r = await h.op('POST', `/orders/${order.body.data.id}/approve`);
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.state, 'failed');
      assert.equal(r.body.data.reason, NO_VENUE_REASON);
      assert.equal(await available(h, o.key, 'BTC'), 5000000n);
      assert.equal(await held(h, o.key, 'BTC'), 0n);
      assert.equal(await available(h, o.key, 'USD'), 0n);
    });

    test('a reconciliation needs the desk\'s market balances', async () => {
      const bare = await h.op('POST', '/reconciliation/run');
      assert.equal(bare.status, 422, bare.raw);
      assert.equal(bare.body.code, 'reconciliation.market_balances_required');
      const given = await h.op('POST', '/reconciliation/run', { marketBalances: [{ assetSymbol: 'BTC', amountMinor: '5000000' }] });
      assert.equal(given.status, 200, given.raw);
      assert.equal(given.body.data.source, 'given');
      assert.equal(given.body.data.matched, true);
    });
  });
}
