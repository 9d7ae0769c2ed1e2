import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ManualClock } from '../src/domain/ports.ts';
import { available, backends, BTC_USD, listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';

/** Sets the platform's reconciliation stop directly: the run that would set it belongs to another suite. */
const setReconciled = (h: Harness, reconciled: boolean) =>
  h.store.db.updateTable('platform_state').set({ reconciled }).where('id', '=', 1).execute();

for (const backend of backends()) {
  describe(`quotes and priced pairs [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend, manualClock: true, env: { CAMBIO_QUOTE_TTL_MS: '15000' } });
      await listAssets(h, { USD: 2, BTC: 8, ETH: 18, JPY: 0 });
      for (const [pair, body] of Object.entries({
        'BTC/USD': BTC_USD,
        'ETH/USD': {
          midRate: '3000.5',
          spreadBps: 30,
          feeBps: 10,
          fixedFeeQuoteMinor: 0,
          minBaseMinor: 1,
          maxBaseMinor: '1000000000000000000000',
        },
        'USD/JPY': { midRate: '150.123', spreadBps: 25, feeBps: 5, fixedFeeQuoteMinor: 0, minBaseMinor: 1, maxBaseMinor: 100000000 },
      })) {
        const r = await h.op('PUT', `/market/pairs/${pair}`, body);
        assert.equal(r.status, 200, r.raw);
      }
    });
    after(async () => h?.close());

    test('the operator prices a pair and reads it back with the offered rate; each change is audited', async () => {
      const r = await h.op('PUT', '/market/pairs/BTC/USD', BTC_USD);
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(r.body.data, {
        baseSymbol: 'BTC',
        quoteSymbol: 'USD',
        baseDecimals: 8,
        quoteDecimals: 2,
        midRate: '65000.00',
        spreadBps: 50,
        feeBps: 10,
        fixedFeeQuoteMinor: '100',
        minBaseMinor: '10000',
        maxBaseMinor: '1000000000',
        rateQuoteMinor: '6467500',
        updatedAt: r.body.data.updatedAt,
      });
      const list = await h.op('GET', '/market/pairs');
      assert.deepEqual(
        list.body.data.map((p: { baseSymbol: string; quoteSymbol: string }) => `${p.baseSymbol}/${p.quoteSymbol}`),
        ['BTC/USD', 'ETH/USD', 'USD/JPY'],
      );
      const audit = await h.op('GET', '/audit?subjectId=BTC/USD&action=market.pair.put');
      assert.ok(audit.body.data.length >= 1);
      assert.deepEqual(audit.body.data[0].after, {
        midRate: '65000.00',
        spreadBps: 50,
        feeBps: 10,
        fixedFeeQuoteMinor: '100',
        minBaseMinor: '10000',
        maxBaseMinor: '1000000000',
      });
    });

    test('pair bodies are validated: same asset, unlisted asset, bad rate, bad range', async () => {
      const cases: Array<[string, unknown, number, string]> = [
        ['/market/pairs/USD/USD', BTC_USD, 422, 'market.invalid_pair'],
        ['/market/pairs/DOGE/USD', BTC_USD, 422, 'market.asset_not_listed'],
        ['/market/pairs/BTC/USD', { ...BTC_USD, midRate: '0.00' }, 422, 'market.invalid_pair'],
        ['/market/pairs/BTC/USD', { ...BTC_USD, midRate: '6.5e4' }, 422, 'request.validation_failed'],
        ['/market/pairs/BTC/USD', { ...BTC_USD, minBaseMinor: '2000000000' }, 422, 'market.invalid_pair'],
        ['/market/pairs/BTC/USD', { ...BTC_USD, minBaseMinor: '-1' }, 422, 'request.invalid_amount'],
        ['/market/pairs/BTC/USD', { ...BTC_USD, spreadBps: 10000 }, 422, 'request.validation_failed'],
        ['/market/pairs/BTC/USD', { ...BTC_USD, extra: 1 }, 422, 'request.validation_failed'],
      ];
      for (const [url, body, status, code] of cases) {
        const r = await h.op('PUT', url, body);
        assert.equal(r.status, status, `${url} ${JSON.stringify(body)}: ${r.raw}`);
        assert.equal(r.body.code, code, `${url} ${JSON.stringify(body)}`);
      }
      // none of the refusals changed the price
      assert.equal((await h.op('GET', '/market/pairs')).body.data[0].midRate, '65000.00');
    });

    test('a quote given the base amount: exact amounts per docs/design/money-and-states.md, held for CAMBIO_QUOTE_TTL_MS, moving nothing', async () => {
      const o = await seedOrg(h, { balances: { BTC: 100000000n } });
      const now = (h.clock as ManualClock).now();
      const r = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
      assert.equal(r.status, 201, r.raw);
      assert.match(r.body.data.id, /^quo_/);
      assert.deepEqual(r.body.data, {
        id: r.body.data.id,
        rateQuoteMinor: '6467500',
        amountBaseMinor: '1000000',
        amountQuoteMinor: '64675',
        expiresAt: new Date(now.getTime() + 15000).toISOString(),
        base: { assetSymbol: 'BTC', assetDecimals: 8, amountMinor: '1000000' },
        quote: { assetSymbol: 'USD', assetDecimals: 2, amountMinor: '64675' },
      });
      assert.equal(await available(h, o.key, 'BTC'), 100000000n);
      assert.equal((await h.call(o.key, 'GET', '/ledger')).body.pagination.total, 1); // the funding only
    });

    test('a quote given the quote amount returns the smallest base amount that reaches it, and its recomputed quote amount', async () => {
      const o = await seedOrg(h);
      const btc = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountQuoteMinor: 64676 });
      assert.equal(btc.status, 201, btc.raw);
      assert.equal(btc.body.data.amountBaseMinor, '1000016');
      assert.equal(btc.body.data.amountQuoteMinor, '64676');
      // JPY has 0 decimals: 18 yen needs 13 cents, which buy 19 yen
      const jpy = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'USD', quoteSymbol: 'JPY', amountQuoteMinor: '18' });
      assert.equal(jpy.status, 201, jpy.raw);
      assert.deepEqual([jpy.body.data.rateQuoteMinor, jpy.body.data.amountBaseMinor, jpy.body.data.amountQuoteMinor], ['149', '13', '19']);
      // ETH has 18 decimals
      const eth = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'ETH', quoteSymbol: 'USD', amountQuoteMinor: '100' });
      assert.equal(eth.status, 201, eth.raw);
      assert.deepEqual(
        [eth.body.data.rateQuoteMinor, eth.body.data.amountBaseMinor, eth.body.data.amountQuoteMinor],
        ['299149', '334281578745041', '100'],
      );
      assert.deepEqual(eth.body.data.base, { assetSymbol: 'ETH', assetDecimals: 18, amountMinor: '334281578745041' });
    });

    test('refusals: one amount exactly, range, executable rate, unpriced pair, malformed amount', async () => {
      const o = await seedOrg(h);
      const cases: Array<[Record<string, unknown>, number, string]> = [
        [
          { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000', amountQuoteMinor: '64675' },
          422,
          'quotes.exactly_one_amount',
        ],
        [{ baseSymbol: 'BTC', quoteSymbol: 'USD' }, 422, 'quotes.exactly_one_amount'],
        [{ baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '9999' }, 422, 'quotes.amount_out_of_range'],
        [{ baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000001' }, 422, 'quotes.amount_out_of_range'],
        [{ baseSymbol: 'BTC', quoteSymbol: 'USD', amountQuoteMinor: '64675000000' }, 422, 'quotes.amount_out_of_range'],
        // the 1.00 USD fixed fee: below 380827 satoshi the venue would pay less than the client receives
        [{ baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '380826' }, 422, 'quotes.quote_below_executable_rate'],
        [{ baseSymbol: 'USD', quoteSymbol: 'BTC', amountBaseMinor: '100000' }, 422, 'quotes.pair_not_priced'],
        [{ baseSymbol: 'DOGE', quoteSymbol: 'USD', amountBaseMinor: '100000' }, 422, 'quotes.pair_not_priced'],
        [{ baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1.5' }, 422, 'request.invalid_amount'],
        [{ baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: -5 }, 422, 'request.invalid_amount'],
        [{ baseSymbol: 'btc', quoteSymbol: 'USD', amountBaseMinor: '1000000' }, 422, 'request.validation_failed'],
      ];
      for (const [body, status, code] of cases) {
        const r = await h.call(o.key, 'POST', '/quotes', body);
        assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.raw}`);
        assert.equal(r.body.code, code, JSON.stringify(body));
        assert.equal(r.body.data, null);
      }
      const edge = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '380827' });
      assert.equal(edge.status, 201, edge.raw);
      assert.equal(edge.body.data.amountQuoteMinor, '24629');
      const oor = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '9999' });
      assert.equal(oor.body.message, 'The base amount must be between 0.0001 BTC and 10 BTC (10000 to 1000000000 minimum units).');
    });

    test('quotes need portal:trade or portal:read, and keep working when the organization cannot operate or the books are not reconciled', async () => {
      const body = { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' };
      const reader = await seedOrg(h, { scopes: ['portal:read'] });
      assert.equal((await h.call(reader.key, 'POST', '/quotes', body)).status, 201);
      const trader = await seedOrg(h, { scopes: ['portal:trade'] });
      assert.equal((await h.call(trader.key, 'POST', '/quotes', body)).status, 201);
      const depositor = await seedOrg(h, { scopes: ['portal:deposit'] });
      const denied = await h.call(depositor.key, 'POST', '/quotes', body);
      assert.equal(denied.status, 403);
      assert.equal(denied.body.code, 'auth.scope_missing');
      const draft = await seedOrg(h, { status: 'draft' });
      assert.equal((await h.call(draft.key, 'POST', '/quotes', body)).status, 201);
      const noLimits = await seedOrg(h, { limits: null });
      assert.equal((await h.call(noLimits.key, 'POST', '/quotes', body)).status, 201);
      await setReconciled(h, false);
      try {
        assert.equal((await h.call(trader.key, 'POST', '/quotes', body)).status, 201);
      } finally {
        await setReconciled(h, true);
      }
      assert.equal((await h.call(null, 'POST', '/quotes', body)).status, 401);
    });

    test('a pair removed from the market is no longer quoted; removing it twice is 404', async () => {
      const o = await seedOrg(h);
      assert.equal(
        (
          await h.op('PUT', '/market/pairs/USD/JPY', {
            midRate: '150.123',
            spreadBps: 25,
            feeBps: 5,
            fixedFeeQuoteMinor: 0,
            minBaseMinor: 1,
            maxBaseMinor: 100000000,
          })
        ).status,
        200,
      );
      const del = await h.op('DELETE', '/market/pairs/USD/JPY');
      assert.equal(del.status, 200, del.raw);
      assert.equal(del.body.data.midRate, '150.123');
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'USD', quoteSymbol: 'JPY', amountBaseMinor: '100' });
      assert.equal(q.status, 422);
      assert.equal(q.body.code, 'quotes.pair_not_priced');
      const again = await h.op('DELETE', '/market/pairs/USD/JPY');
      assert.equal(again.status, 404);
      assert.equal(again.body.code, 'market.pair_not_found');
    });
  });
}
