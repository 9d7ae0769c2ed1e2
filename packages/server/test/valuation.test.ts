import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ManualClock } from '../src/domain/ports.ts';
import { backends, BTC_USD, listAssets, makeHarness, seedOrg, signedInMember, withCookie, type Harness } from './harness.ts';

/**
 * Balances in one reporting currency and their history (docs/api-guide.md, Valuation): the rate a quote
 * gives now, the direct pair or the inverse one, truncated to the reporting currency's decimals; an
 * asset with no price is left out of the total and named; the daily closing totals come from the ledger.
 */
for (const backend of backends()) {
  describe(`valuation and balance history [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend, manualClock: true });
      await listAssets(h, { USD: 2, BTC: 8, EUR: 2, DOGE: 8 });
      assert.equal((await h.op('PUT', '/market/pairs/BTC/USD', BTC_USD)).status, 200);
      // Only USD→EUR is priced: EUR is valued in USD through the inverse pair.
      const inv = await h.op('PUT', '/market/pairs/USD/EUR', {
        ...BTC_USD,
        midRate: '0.92',
        spreadBps: 100,
        fixedFeeQuoteMinor: '0',
        minBaseMinor: '100',
      });
      assert.equal(inv.status, 200, inv.raw);
    });
    after(async () => h?.close());

    test('USD by default: 0.5 BTC at 64,675.00 (65000 less 0.5%), EUR through USD/EUR at 0.91, DOGE without a price; exact total', async () => {
      const o = await seedOrg(h, { balances: { USD: 123456n, BTC: 50000000n, EUR: 100000n, DOGE: 100000000000n } });
      const r = await h.call(o.key, 'GET', '/valuation');
      assert.equal(r.status, 200, r.raw);
      const v = r.body.data;
      assert.equal(v.reportingCurrency, 'USD');
      assert.equal(v.reportingDecimals, 2);
      assert.equal(v.estimate, true);
      assert.equal(v.rounding, 'truncate');
      assert.deepEqual(
        v.balances.map((b: Record<string, unknown>) => [b.assetSymbol, b.totalMinor, b.valueMinor, b.pricedBy]),
        [
          // floor(50000000 × 6467500 / 10^8)
          ['BTC', '50000000', '3233750', 'direct'],
          ['DOGE', '100000000000', null, 'none'],
          // rate floor(0.92 × 0.99 × 100) = 91 EUR cents per USD; floor(100000 × 100 / 91) = 109890.1…
          ['EUR', '100000', '109890', 'inverse'],
          ['USD', '123456', '123456', 'same'],
        ],
      );
      assert.equal(v.totalValueMinor, String(3233750n + 109890n + 123456n));
      assert.deepEqual(v.unpriced, ['DOGE']);

      // EUR chosen: USD through USD/EUR directly (floor(123456 × 91 / 100) = 112344), BTC has no path to EUR.
      const person = await signedInMember(h, o.orgId);
      const put = await withCookie(h, person.cookie, 'PUT', '/portal/v1/settings/reporting', { reportingCurrency: 'EUR' });
      assert.equal(put.status, 200, put.raw);
      assert.deepEqual(put.body.data, { reportingCurrency: 'EUR', chosen: true, language: null, updatedAt: h.clock.now().toISOString() });
      const eur = (await h.call(o.key, 'GET', '/valuation')).body.data;
      assert.deepEqual(
        eur.balances.map((b: Record<string, unknown>) => [b.assetSymbol, b.valueMinor, b.pricedBy]),
        [
          ['BTC', null, 'none'],
          ['DOGE', null, 'none'],
          ['EUR', '100000', 'same'],
          ['USD', '112344', 'direct'],
        ],
      );
      assert.equal(eur.totalValueMinor, '212344');
      assert.deepEqual(eur.unpriced, ['BTC', 'DOGE']);

      // The desk reads the same.
      const desk = await h.op('GET', `/organizations/${o.orgId}/valuation`);
      assert.equal(desk.status, 200, desk.raw);
      assert.deepEqual(desk.body.data.balances, eur.balances);
      assert.equal(desk.body.data.totalValueMinor, '212344');
    });

    test('the setting: members read it, portal:team changes it, an unlisted currency is 422, the change is audited', async () => {
      const o = await seedOrg(h);
      const reader = await signedInMember(h, o.orgId, ['portal:read']);
      const read = await withCookie(h, reader.cookie, 'GET', '/portal/v1/settings/reporting');
      assert.deepEqual(read.body.data, { reportingCurrency: 'USD', chosen: false, language: null, updatedAt: null });
      const refused = await withCookie(h, reader.cookie, 'PUT', '/portal/v1/settings/reporting', { reportingCurrency: 'EUR' });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'auth.scope_missing');
      const admin = await signedInMember(h, o.orgId, ['portal:team']);
      const bad = await withCookie(h, admin.cookie, 'PUT', '/portal/v1/settings/reporting', { reportingCurrency: 'XYZ' });
      assert.equal(bad.status, 422, bad.raw);
      assert.equal(bad.body.code, 'market.asset_not_listed');
      const lang = await withCookie(h, admin.cookie, 'PUT', '/portal/v1/settings/reporting', { language: 'fr' });
      assert.equal(lang.status, 422, lang.raw);
      const ok = await withCookie(h, admin.cookie, 'PUT', '/portal/v1/settings/reporting', { reportingCurrency: 'BTC', language: 'es' });
      assert.equal(ok.status, 200, ok.raw);
      const audit = await h.op('GET', `/audit?subjectId=${o.orgId}`);
      const entry = (audit.body.data as Array<{ action: string; after: unknown; before: unknown }>).find(
        (a) => a.action === 'organization.reporting',
      );
      assert.deepEqual(entry && [entry.before, entry.after], [null, { reportingCurrency: 'BTC', language: 'es' }]);
    });

    test('history: the closing total per UTC day from the ledger, holds included, exact', async () => {
      const clock = h.clock as ManualClock;
      clock.set(new Date('2026-05-01T12:00:00.000Z'));
      const o = await seedOrg(h, { balances: { USD: 1000n } });
      clock.set(new Date('2026-05-03T23:59:59.000Z'));
      await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '250', reason: 'a' });
      clock.set(new Date('2026-05-04T00:00:00.000Z'));
      await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '-100', reason: 'b' });
      clock.set(new Date('2026-05-05T08:00:00.000Z'));
      const r = await h.call(o.key, 'GET', '/balances/history?days=4');
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(r.body.data, {
        from: '2026-05-02',
        to: '2026-05-05',
        assets: [
          {
            assetSymbol: 'USD',
            assetDecimals: 2,
            points: [
              { date: '2026-05-02', closingMinor: '1000' },
              { date: '2026-05-03', closingMinor: '1250' },
              { date: '2026-05-04', closingMinor: '1150' },
              { date: '2026-05-05', closingMinor: '1150' },
            ],
          },
        ],
      });
      const desk = await h.op('GET', `/organizations/${o.orgId}/balances/history?days=4`);
      assert.deepEqual(desk.body.data, r.body.data);
      assert.equal((await h.call(o.key, 'GET', '/balances/history')).body.data.assets[0].points.length, 30, '30 days by default');
      for (const q of ['days=0', 'days=367', 'days=x']) assert.equal((await h.call(o.key, 'GET', `/balances/history?${q}`)).status, 400, q);
    });
  });
}
