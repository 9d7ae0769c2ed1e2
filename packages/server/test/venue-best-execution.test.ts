import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { ManualClock } from '../src/domain/ports.ts';
import { recoverApproved } from '../src/usecases/orders/execute-approved.ts';
import { available, backends, listAssets, makeHarness, SECRET, seedOrg, type Harness, type SeededOrg } from './harness.ts';
import { DOUBLE_KEY, DOUBLE_SECRET, startBinanceDouble, type BinanceDouble } from './venue-double/binance-double.ts';
import { BOOK, BUY_PAIR, SELL_PAIR } from './venue-double/venue-harness.ts';

// Two exchange accounts at once (docs/market.md, "Several venues, best execution"): two Binance doubles,
// alpha listed first. BETTER pays more for BTC than BOOK and asks less for it.
// Selling 1 BTC: alpha (BOOK) 0.5 @ 65000 + 0.5 @ 64990 = 64995, rate floor(64995 × 0.995 × 100) = 6467002;
// beta (BETTER) 0.5 @ 65100 + 0.5 @ 65050 = 65075, rate floor(65075 × 0.995 × 100) = 6474962.
const BETTER = {
  bids: [
    ['65100.00', '0.5'],
    ['65050.00', '1.0'],
    ['64900.00', '2'],
  ] as Array<[string, string]>,
  asks: [
    ['65110.00', '0.5'],
    ['65120.00', '1.0'],
  ] as Array<[string, string]>,
};
// A book where BTC is cheap: buying it with USDT gets more there.
const CHEAP = {
  bids: [['59990.00', '1']] as Array<[string, string]>,
  asks: [
    ['60000.00', '0.5'],
    ['60010.00', '1.0'],
  ] as Array<[string, string]>,
};
const ONE_BTC = '100000000';

function venuesEnv(alpha: BinanceDouble, beta: BinanceDouble): Record<string, string> {
  return {
    CAMBIO_MODE: 'production',
    CAMBIO_SECRET: SECRET,
    CAMBIO_VENUES: 'alpha=ccxt:binance,beta=ccxt:binance',
    CAMBIO_VENUE_ALPHA_URL: alpha.origin,
    CAMBIO_VENUE_ALPHA_API_KEY: DOUBLE_KEY,
    CAMBIO_VENUE_ALPHA_SECRET: DOUBLE_SECRET,
    CAMBIO_VENUE_BETA_URL: beta.origin,
    CAMBIO_VENUE_BETA_API_KEY: DOUBLE_KEY,
    CAMBIO_VENUE_BETA_SECRET: DOUBLE_SECRET,
  };
}

type Offer = { venue: string; amountBaseMinor: string | null; amountQuoteMinor: string | null; leftOut: string | null; chosen: boolean };

for (const backend of backends()) {
  describe(`several venues, best execution (${backend})`, () => {
    let alpha: BinanceDouble;
    let beta: BinanceDouble;
    let h: Harness;
    let o: SeededOrg;
    before(async () => {
      [alpha, beta] = await Promise.all([startBinanceDouble(), startBinanceDouble()]);
      alpha.setBook('BTCUSDT', BOOK);
      beta.setBook('BTCUSDT', BETTER);
      h = await makeHarness({ backend, manualClock: true, env: venuesEnv(alpha, beta) });
      await listAssets(h, { BTC: 8, USDT: 2 });
      for (const [path, body] of [
        ['/market/pairs/BTC/USDT', SELL_PAIR],
        ['/market/pairs/USDT/BTC', BUY_PAIR],
      ] as const) {
        const r = await h.op('PUT', path, body);
        assert.equal(r.status, 200, r.raw);
      }
      o = await seedOrg(h, { balances: { BTC: 1_000_000_000n, USDT: 100_000_000n } });
    });
    beforeEach(() => {
      alpha.setBook('BTCUSDT', BOOK);
      beta.setBook('BTCUSDT', BETTER);
      alpha.clearFaults();
      beta.clearFaults();
      alpha.setBalance('BTC', '100');
      beta.setBalance('BTC', '100');
      // Every test reads the books again.
      (h.clock as ManualClock).advance(5_000);
    });
    after(async () => {
      await h.close();
      await Promise.all([alpha.close(), beta.close()]);
    });

    const quote = async (body: Record<string, string>) => {
      const q = await h.call(o.key, 'POST', '/quotes', body);
      return q;
    };
    const venueOf = async (quoteId: string) =>
      (await h.store.db.selectFrom('quotes').select('venue').where('id', '=', quoteId).executeTakeFirst())?.venue;
    const offersOf = async (quoteId: string) => {
      const order = await h.call(o.key, 'POST', '/orders', { quoteId });
      assert.equal(order.status, 201, order.raw);
      const r = await h.op('GET', `/orders/${order.body.data.id}`);
      assert.equal(r.status, 200, r.raw);
      return { id: order.body.data.id as string, order: r.body.data, offers: r.body.data.offers as Offer[] };
    };

    test("reconciliation against the venues: every account's balances together against the books", async () => {
      // The books: the client's 10 BTC and 1,000,000.00 USDT at the market, split between the two accounts.
      alpha.setBalance('BTC', '4', '0.5');
      beta.setBalance('BTC', '5.5');
      alpha.setBalance('USDT', '600000');
      beta.setBalance('USDT', '400000');
      const r = await h.op('POST', '/reconciliation/run');
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.matched, true, r.raw);
      const figures = r.body.data.figures as Array<{ assetSymbol: string; booksMinor: string; marketMinor: string }>;
      assert.deepEqual(
        figures.filter((f) => ['BTC', 'USDT'].includes(f.assetSymbol)).map((f) => [f.assetSymbol, f.booksMinor, f.marketMinor]),
        [
          ['BTC', '1000000000', '1000000000'],
          ['USDT', '100000000', '100000000'],
        ],
      );
    });

    test('selling a base amount: the venue paying most wins, and the order shows what each venue offered', async () => {
      const q = await quote({ baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: ONE_BTC });
      assert.equal(q.status, 201, q.raw);
      assert.equal(q.body.data.amountQuoteMinor, '6474962');
      assert.equal(await venueOf(q.body.data.id), 'beta');
      const { order, offers } = await offersOf(q.body.data.id);
      assert.equal(order.venue, 'beta');
      assert.deepEqual(
        offers.map((f) => [f.venue, f.amountBaseMinor, f.amountQuoteMinor, f.leftOut, f.chosen]),
        [
          ['alpha', ONE_BTC, '6467002', null, false],
          ['beta', ONE_BTC, '6474962', null, true],
        ],
      );
    });

    test('a quote amount: the venue asking the smallest base amount wins', async () => {
      const q = await quote({ baseSymbol: 'BTC', quoteSymbol: 'USDT', amountQuoteMinor: '5000000' });
      assert.equal(q.status, 201, q.raw);
      assert.equal(await venueOf(q.body.data.id), 'beta');
      const { offers } = await offersOf(q.body.data.id);
      // alpha's figure is venue-quotes.test.ts's: 77314000 for 5000000.
      assert.equal(offers[0]!.amountBaseMinor, '77314000');
      assert.equal(offers[1]!.amountBaseMinor, q.body.data.amountBaseMinor);
      assert.ok(BigInt(q.body.data.amountBaseMinor) < 77_314_000n, q.raw);
      assert.deepEqual(
        offers.map((f) => f.chosen),
        [false, true],
      );
    });

    test('buying BTC with USDT: the cheaper asks win the other way round', async () => {
      beta.setBook('BTCUSDT', CHEAP);
      const q = await quote({ baseSymbol: 'USDT', quoteSymbol: 'BTC', amountBaseMinor: '4000000' });
      assert.equal(q.status, 201, q.raw);
      const { offers } = await offersOf(q.body.data.id);
      assert.equal(await venueOf(q.body.data.id), 'beta', JSON.stringify(offers));
      assert.equal(offers[0]!.amountQuoteMinor, '61200000'); // venue-quotes.test.ts, alpha's book
      // 40000 USDT at 60000: floor(1 / 60000 × 0.995 × 10⁸) = 1658 satoshi per USDT.
      assert.equal(offers[1]!.amountQuoteMinor, '66320000');
      assert.equal(q.body.data.amountQuoteMinor, '66320000');
    });

    test('the same price at both: the venue listed first wins', async () => {
      beta.setBook('BTCUSDT', BOOK);
      const q = await quote({ baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: ONE_BTC });
      assert.equal(q.status, 201, q.raw);
      assert.equal(q.body.data.amountQuoteMinor, '6467002');
      assert.equal(await venueOf(q.body.data.id), 'alpha');
      const { offers } = await offersOf(q.body.data.id);
      assert.deepEqual(
        offers.map((f) => [f.venue, f.amountQuoteMinor, f.chosen]),
        [
          ['alpha', '6467002', true],
          ['beta', '6467002', false],
        ],
      );
    });

    test('a venue that is down is left out: the other one prices it, and the order shows why', async () => {
      beta.fail('/api/v3/depth', 503, 1000);
      const q = await quote({ baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: ONE_BTC });
      assert.equal(q.status, 201, q.raw);
      assert.equal(q.body.data.amountQuoteMinor, '6467002');
      assert.equal(await venueOf(q.body.data.id), 'alpha');
      const { offers } = await offersOf(q.body.data.id);
      assert.deepEqual(
        offers.map((f) => [f.venue, f.amountQuoteMinor, f.leftOut, f.chosen]),
        [
          ['alpha', '6467002', null, true],
          ['beta', null, 'market.unavailable', false],
        ],
      );
    });

    test('every venue down: 503 market.unavailable; every venue too thin: 422; nothing is created', async () => {
      alpha.fail('/api/v3/depth', 503, 1000);
      beta.fail('/api/v3/depth', 503, 1000);
      const down = await quote({ baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: ONE_BTC });
      assert.equal(down.status, 503, down.raw);
      assert.equal(down.body.code, 'market.unavailable');
      alpha.clearFaults();
      // alpha too thin for 4 BTC (3.5 in its bids), beta down: the answer is alpha's 422.
      const thin = await quote({ baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '400000000' });
      assert.equal(thin.status, 422, thin.raw);
      assert.equal(thin.body.code, 'quotes.amount_out_of_range');
    });

    test('the approved order executes at the venue it was quoted at, and only there', async () => {
      const usdt = await available(h, o.key, 'USDT');
      const q = await quote({ baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: ONE_BTC });
      assert.equal(q.status, 201, q.raw);
      // beta's book moves after the quote: the order still goes to beta, never to alpha.
      beta.setBook('BTCUSDT', BOOK);
      const order = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
      assert.equal(order.status, 201, order.raw);
      const id = order.body.data.id as string;
      const approve = await h.op('POST', `/orders/${id}/approve`);
      assert.equal(approve.status, 200, approve.raw);
      assert.equal(approve.body.data.state, 'completed');
      assert.equal(approve.body.data.venue, 'beta');
      assert.equal(beta.orders.filter((x) => x.clientOrderId === id).length, 1);
      assert.equal(alpha.orders.filter((x) => x.clientOrderId === id).length, 0);
      assert.equal(await available(h, o.key, 'USDT'), usdt + 6_474_962n);
      // The recovery task asks again: still one order, at beta.
      (h.clock as ManualClock).advance(60_000);
      await recoverApproved(h.deps, 0);
      assert.equal(beta.orders.filter((x) => x.clientOrderId === id).length, 1);
      assert.equal(alpha.orders.filter((x) => x.clientOrderId === id).length, 0);
      const rows = await h.store.db.selectFrom('venue_orders').select('venue').where('order_id', '=', id).execute();
      assert.deepEqual(rows, [{ venue: 'beta' }]);
    });

    test('an answer lost at the winning venue: looked up there, never sent to the other', async () => {
      const q = await quote({ baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: ONE_BTC });
      const order = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
      const id = order.body.data.id as string;
      beta.dropAfterNextOrder();
      const approve = await h.op('POST', `/orders/${id}/approve`);
      assert.equal(approve.body.data.state, 'approved');
      (h.clock as ManualClock).advance(1);
      await Promise.all([recoverApproved(h.deps, 0), recoverApproved(h.deps, 0)]);
      assert.equal((await h.store.orders.get(id))?.state, 'completed');
      assert.equal(beta.orders.filter((x) => x.clientOrderId === id).length, 1);
      assert.equal(alpha.orders.filter((x) => x.clientOrderId === id).length, 0);
    });

    test("a market's book before any pair is priced from it: each venue's best levels, read now; a venue down is left out", async () => {
      const levels = async () => {
        const r = await h.op('GET', '/venue/markets/book?symbol=BTC/USDT');
        assert.equal(r.status, 200, r.raw);
        return (r.body.data as Array<Record<string, string>>).map((b) => [b.venue, b.bestBid, b.bestBidQty, b.bestAsk, b.bestAskQty]);
      };
      assert.deepEqual(await levels(), [
        ['alpha', '65000', '0.5', '65010', '0.5'],
        ['beta', '65100', '0.5', '65110', '0.5'],
      ]);
      (h.clock as ManualClock).advance(10_000);
      beta.fail('/api/v3/depth', 503, 1000);
      assert.deepEqual(await levels(), [['alpha', '65000', '0.5', '65010', '0.5']]);
      const unknown = await h.op('GET', '/venue/markets/book?symbol=DOGE/USDT');
      assert.equal(unknown.status, 422, unknown.raw);
      assert.equal(unknown.body.code, 'market.venue_unknown_symbol');
      const none = await h.op('GET', '/venue/markets/book');
      assert.equal(none.status, 400, none.raw);
    });

    test('GET /venue lists each venue by name with its health', async () => {
      const r = await h.op('GET', '/venue');
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(
        (r.body.data.venues as Array<{ name: string; exchange: string }>).map((v) => [v.name, v.exchange]),
        [
          ['alpha', 'binance'],
          ['beta', 'binance'],
        ],
      );
    });
  });
}
