import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends, BTC_USD, listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';

/**
 * What a client can trade and within which bounds: GET /market/pairs lists the pairs priced
 * now with their amount bounds and decimals and nothing of the operator's terms; GET /client carries
 * the organization's limits; the two refusals about amount bounds say the bound in the asset's units.
 */
for (const backend of backends()) {
  describe(`market pairs, limits and bounds in units [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
      await listAssets(h, { USD: 2, BTC: 8, JPY: 0, EUR: 2 });
      for (const [pair, body] of Object.entries({
        'BTC/USD': BTC_USD,
        // the smallest amount that receives one yen is 1 cent at 149 yen per dollar: min stays the pair's 100
        'USD/JPY': { midRate: '150.123', spreadBps: 25, feeBps: 5, fixedFeeQuoteMinor: 0, minBaseMinor: 100, maxBaseMinor: 100000000 },
        // a rate so low that no amount up to the max receives one cent: not quotable, not listed
        'JPY/EUR': { midRate: '0.00001', spreadBps: 0, feeBps: 0, fixedFeeQuoteMinor: 0, minBaseMinor: 1, maxBaseMinor: 100 },
      }))
        assert.equal((await h.op('PUT', `/market/pairs/${pair}`, body)).status, 200);
      assert.equal((await h.op('PUT', '/wallets/BTC', { network: 'bitcoin', address: 'bc1-test' })).status, 200);
    });
    after(async () => h?.close());

    test('GET /market/pairs: the pairs a quote can be had for, their bounds and decimals, no spread or fee', async () => {
      const o = await seedOrg(h, { scopes: ['portal:read'] });
      const r = await h.call(o.key, 'GET', '/market/pairs');
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(r.body.data, [
        { baseSymbol: 'BTC', quoteSymbol: 'USD', baseDecimals: 8, quoteDecimals: 2, minBaseMinor: '10000', maxBaseMinor: '1000000000' },
        { baseSymbol: 'USD', quoteSymbol: 'JPY', baseDecimals: 2, quoteDecimals: 0, minBaseMinor: '100', maxBaseMinor: '100000000' },
      ]);
      // The data, not the whole body: the envelope's random traceId may hold the letters 'fee'.
      assert.doesNotMatch(JSON.stringify(r.body.data), /midRate|spread|fee|65000/i);
      // The bounds are the ones a quote enforces: the edges are accepted, one unit outside is refused.
      const trader = await seedOrg(h, { scopes: ['portal:trade'] });
      assert.equal((await h.call(trader.key, 'GET', '/market/pairs')).status, 200, 'a key that may quote may read what it can quote');
      assert.equal(
        (await h.call(trader.key, 'POST', '/quotes', { baseSymbol: 'USD', quoteSymbol: 'JPY', amountBaseMinor: '100' })).status,
        201,
      );
      assert.equal(
        (await h.call(trader.key, 'POST', '/quotes', { baseSymbol: 'USD', quoteSymbol: 'JPY', amountBaseMinor: '99' })).body.code,
        'quotes.amount_out_of_range',
      );
      assert.equal(
        (await h.call(trader.key, 'POST', '/quotes', { baseSymbol: 'USD', quoteSymbol: 'JPY', amountBaseMinor: '100000001' })).body.code,
        'quotes.amount_out_of_range',
      );
    });

    test('GET /market/pairs follows the operator: a repriced range shows at once, a deleted pair leaves', async () => {
      const o = await seedOrg(h);
      assert.equal((await h.op('PUT', '/market/pairs/BTC/USD', { ...BTC_USD, minBaseMinor: '20000' })).status, 200);
      const after1 = await h.call(o.key, 'GET', '/market/pairs');
      assert.equal(after1.body.data.find((p: { baseSymbol: string }) => p.baseSymbol === 'BTC').minBaseMinor, '20000');
      assert.equal((await h.op('DELETE', '/market/pairs/USD/JPY')).status, 200);
      assert.deepEqual(
        (await h.call(o.key, 'GET', '/market/pairs')).body.data.map((p: { baseSymbol: string }) => p.baseSymbol),
        ['BTC'],
      );
      assert.equal((await h.op('PUT', '/market/pairs/BTC/USD', BTC_USD)).status, 200);
      assert.equal(
        (
          await h.op('PUT', '/market/pairs/USD/JPY', {
            midRate: '150.123',
            spreadBps: 25,
            feeBps: 5,
            fixedFeeQuoteMinor: 0,
            minBaseMinor: 100,
            maxBaseMinor: 100000000,
          })
        ).status,
        200,
      );
    });

    test('GET /market/pairs needs a scope (403 names it), takes no query, and is in the OpenAPI document', async () => {
      const none = await seedOrg(h, { scopes: ['portal:deposit'] });
      const r = await h.call(none.key, 'GET', '/market/pairs');
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'auth.scope_missing');
      assert.equal((await h.call(null, 'GET', '/market/pairs')).status, 401);
      const o = await seedOrg(h);
      assert.equal((await h.call(o.key, 'GET', '/market/pairs?page=1')).body.code, 'request.invalid_query');
      const doc = (await h.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
      assert.equal(doc.paths['/api/v1/market/pairs'].get.operationId, 'getMarketPairs');
    });

    test('GET /operator/v1/venue/markets under a venue without market data (the simulated one): an empty list', async () => {
      const r = await h.op('GET', '/venue/markets');
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(r.body.data, []);
    });

    test('GET /client carries the limits: null when none are loaded, else each capped asset with its decimals', async () => {
      const capped = await seedOrg(h, {
        limits: { BTC: { maxOrderMinor: '50000000' }, USD: { maxOrderMinor: '100000', maxWithdrawalMinor: '25000' }, XYZ: {} },
      });
      const r = await h.call(capped.key, 'GET', '/client');
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.data.limits, [
        { assetSymbol: 'BTC', assetDecimals: 8, maxOrderMinor: '50000000', maxWithdrawalMinor: null },
        { assetSymbol: 'USD', assetDecimals: 2, maxOrderMinor: '100000', maxWithdrawalMinor: '25000' },
        { assetSymbol: 'XYZ', assetDecimals: null, maxOrderMinor: null, maxWithdrawalMinor: null },
      ]);
      assert.equal(r.body.data.canOperate, true);
      const open = await seedOrg(h, { limits: {} });
      assert.deepEqual((await h.call(open.key, 'GET', '/client')).body.data.limits, [], 'loaded with no cap');
      const none = await seedOrg(h, { limits: null });
      const n = await h.call(none.key, 'GET', '/client');
      assert.equal(n.body.data.limits, null);
      assert.equal(n.body.data.canOperate, false);
      // A change by the operator shows on the next read.
      assert.equal((await h.op('PATCH', `/organizations/${none.orgId}`, { limits: { USD: { maxWithdrawalMinor: '5' } } })).status, 200);
      assert.deepEqual((await h.call(none.key, 'GET', '/client')).body.data.limits, [
        { assetSymbol: 'USD', assetDecimals: 2, maxOrderMinor: null, maxWithdrawalMinor: '5' },
      ]);
    });

    test("quotes.amount_out_of_range states the bounds in the asset's units, in en and es", async () => {
      const o = await seedOrg(h);
      const en = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '9999' });
      assert.equal(en.status, 422);
      assert.equal(en.body.message, 'The base amount must be between 0.0001 BTC and 10 BTC (10000 to 1000000000 minimum units).');
      const es = await h.call(
        o.key,
        'POST',
        '/quotes',
        { baseSymbol: 'USD', quoteSymbol: 'JPY', amountBaseMinor: '100000001' },
        { 'x-lang': 'es' },
      );
      assert.equal(es.body.message, 'El monto base debe estar entre 1 USD y 1000000 USD (de 100 a 100000000 unidades mínimas).');
    });

    test("deposits.amount_too_small states the smallest declarable amount in the asset's units, in en and es", async () => {
      const o = await seedOrg(h);
      const en = await h.call(o.key, 'POST', '/deposits/declarations', {
        assetSymbol: 'BTC',
        assetDecimals: 8,
        declaredAmountMinor: '99999',
      });
      assert.equal(en.status, 422);
      assert.equal(en.body.message, 'The amount is too small to be made unique: declare at least 0.001 BTC (100000 minimum units).');
      const es = await h.call(
        o.key,
        'POST',
        '/deposits/declarations',
        { assetSymbol: 'BTC', assetDecimals: 8, declaredAmountMinor: '1' },
        { 'x-lang': 'es' },
      );
      assert.equal(
        es.body.message,
        'El monto es demasiado pequeño para hacerlo único: declare al menos 0.001 BTC (100000 unidades mínimas).',
      );
      assert.equal((await h.call(o.key, 'GET', '/deposits/open-declaration')).body.data, null, 'nothing was opened');
    });
  });
}
