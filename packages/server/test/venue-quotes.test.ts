import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ManualClock } from '../src/domain/ports.ts';
import { backends, listAssets, makeHarness, seedOrg, type Harness, type SeededOrg } from './harness.ts';
import { startBinanceDouble, type BinanceDouble } from './venue-double/binance-double.ts';
import { BOOK, SELL_PAIR, venueHarness } from './venue-double/venue-harness.ts';

const quoteCount = async (h: Harness) =>
  Number(
    (
      await h.store.db
        .selectFrom('quotes')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

for (const backend of backends()) {
  describe(`quotes priced from the venue's book (${backend})`, () => {
    let double: BinanceDouble;
    let h: Harness;
    let o: SeededOrg;
    before(async () => {
      double = await startBinanceDouble();
      double.setBook('BTCUSDT', BOOK);
      h = await venueHarness(backend, double);
      o = await seedOrg(h, { balances: { BTC: 1_000_000_000n, USDT: 100_000_000n } });
    });
    after(async () => {
      await h.close();
      await double.close();
    });

    test('a venue pair is listed with its venue market; CCXT asked the double for nothing it does not answer', async () => {
      const r = await h.op('GET', '/market/pairs');
      const p = (r.body.data as Array<Record<string, unknown>>).find((x) => x.baseSymbol === 'BTC');
      assert.equal(p?.source, 'venue');
      assert.equal(p?.venueSymbol, 'BTC/USDT');
      assert.equal(p?.maxBookAgeMs, 2000);
      assert.equal(p?.midRate, '');
      assert.deepEqual(double.unknown, []);
    });

    test("GET /venue/markets: the venue's markets with their steps as the venue's exact decimal text", async () => {
      const r = await h.op('GET', '/venue/markets');
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(r.body.data, [
        { symbol: 'BTC/USDT', baseSymbol: 'BTC', quoteSymbol: 'USDT', amountStep: '0.00001', priceStep: '0.01', minNotional: '5' },
      ]);
      assert.deepEqual(double.unknown, []);
    });

    test('selling BTC into the bids: exact figures by base amount and by quote amount', async () => {
      const byBase = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '100000000' });
      assert.equal(byBase.status, 201, byBase.raw);
      assert.equal(byBase.body.data.rateQuoteMinor, '6467002');
      assert.equal(byBase.body.data.amountQuoteMinor, '6467002');
      const byQuote = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountQuoteMinor: '5000000' });
      assert.equal(byQuote.status, 201, byQuote.raw);
      assert.equal(byQuote.body.data.amountBaseMinor, '77314000');
      assert.equal(byQuote.body.data.amountQuoteMinor, '5000010');
      assert.equal(byQuote.body.data.rateQuoteMinor, '6467148');
    });

    test('buying BTC with USDT from the asks: exact figures by base amount and by quote amount', async () => {
      const byBase = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'USDT', quoteSymbol: 'BTC', amountBaseMinor: '4000000' });
      assert.equal(byBase.status, 201, byBase.raw);
      assert.equal(byBase.body.data.rateQuoteMinor, '1530');
      assert.equal(byBase.body.data.amountQuoteMinor, '61200000');
      const byQuote = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'USDT', quoteSymbol: 'BTC', amountQuoteMinor: '20000000' });
      assert.equal(byQuote.status, 201, byQuote.raw);
      assert.equal(byQuote.body.data.amountBaseMinor, '1307190');
      assert.equal(byQuote.body.data.amountQuoteMinor, '20000007');
    });

    test("a thin book, an amount off the venue's step and one below its minimum order are 422 naming the bound", async () => {
      const thin = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '400000000' });
      assert.equal(thin.status, 422);
      assert.equal(thin.body.code, 'quotes.amount_out_of_range');
      assert.match(thin.body.message ?? '', /order book cannot fill/);
      const step = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '100000001' });
      assert.equal(step.status, 422);
      assert.equal(step.body.code, 'quotes.amount_out_of_range');
      assert.match(step.body.message ?? '', /steps of 0\.00001 BTC/);
      const small = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'USDT', quoteSymbol: 'BTC', amountBaseMinor: '499' });
      assert.equal(small.status, 422);
      assert.match(small.body.message ?? '', /smallest order is worth 5 USDT/);
    });

    test('a book older than maxBookAgeMs that cannot be read again: 503 market.unavailable, Retry-After 1, nothing created', async () => {
      const fresh = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '100000000' });
      assert.equal(fresh.status, 201);
      const before = await quoteCount(h);
      double.fail('/api/v3/depth', 502, 1000);
      // Within its age the held book still prices.
      (h.clock as ManualClock).advance(1500);
      assert.equal(
        (await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '100000000' })).status,
        201,
      );
      (h.clock as ManualClock).advance(600);
      const stale = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '100000000' });
      assert.equal(stale.status, 503, stale.raw);
      assert.equal(stale.body.code, 'market.unavailable');
      assert.equal(stale.headers['retry-after'], '1');
      assert.equal(await quoteCount(h), before + 1);
      const metrics = (await h.op('GET', '/metrics')).raw;
      assert.match(metrics, /cambio_venue_errors_total\{kind="book:[A-Za-z]+"\} [1-9]/);
      assert.match(metrics, /cambio_venue_book_age_seconds\{market="BTCUSDT"\} 2\.1/);
      // The venue answers again: a new book, priced from its new figures.
      double.clearFaults();
      double.setBook('BTCUSDT', { bids: [['70000.00', '10']], asks: BOOK.asks });
      const moved = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '100000000' });
      assert.equal(moved.status, 201, moved.raw);
      assert.equal(moved.body.data.rateQuoteMinor, '6965000'); // floor(70000 × 0.995 × 100)
      double.setBook('BTCUSDT', BOOK);
    });

    test("a venue market that does not trade the pair's two assets is refused when pricing it", async () => {
      await listAssets(h, { USD: 2, ETH: 8 });
      const wrong = await h.op('PUT', '/market/pairs/BTC/USD', { ...SELL_PAIR });
      assert.equal(wrong.status, 422);
      assert.equal(wrong.body.code, 'market.venue_unknown_symbol');
      const missing = await h.op('PUT', '/market/pairs/ETH/USDT', { ...SELL_PAIR, venueSymbol: 'ETH/USDT' });
      assert.equal(missing.body.code, 'market.venue_unknown_symbol');
      const both = await h.op('PUT', '/market/pairs/BTC/USDT', { ...SELL_PAIR, midRate: '65000' });
      assert.equal(both.body.code, 'market.invalid_pair');
    });
  });
}

describe('a venue that cannot be reached', () => {
  test('quotes are 503 market.unavailable and nothing is created', async () => {
    const double = await startBinanceDouble();
    double.setBook('BTCUSDT', BOOK);
    const h = await venueHarness('pglite', double);
    try {
      const o = await seedOrg(h);
      await double.close();
      const r = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '100000000' });
      assert.equal(r.status, 503, r.raw);
      assert.equal(r.body.code, 'market.unavailable');
      assert.equal(r.headers['retry-after'], '1');
      assert.equal(await quoteCount(h), 0);
    } finally {
      await h.close();
    }
  });

  test('the sandbox has no venue book to price from', async () => {
    const h = await makeHarness();
    try {
      await listAssets(h, { BTC: 8, USDT: 2 });
      const r = await h.op('PUT', '/market/pairs/BTC/USDT', SELL_PAIR);
      assert.equal(r.status, 422);
      assert.equal(r.body.code, 'market.invalid_pair');
    } finally {
      await h.close();
    }
  });
});
