import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends, seedOrg, type Harness, type SeededOrg } from './harness.ts';
import { startBinanceDouble, type BinanceDouble } from './venue-double/binance-double.ts';
import { BOOK, venueHarness } from './venue-double/venue-harness.ts';

type Fig = { assetSymbol: string; booksMinor: string; marketMinor: string; differenceMinor: string; matched: boolean };
const figure = (r: { body: { data: { figures: Fig[] } } }, asset: string): Fig | undefined =>
  r.body.data.figures.find((f) => f.assetSymbol === asset);

for (const backend of backends()) {
  describe(`reconciliation against the venue account's balances (${backend})`, () => {
    let double: BinanceDouble;
    let h: Harness;
    let o: SeededOrg;
    before(async () => {
      double = await startBinanceDouble();
      double.setBook('BTCUSDT', BOOK);
      h = await venueHarness(backend, double);
      // The platform holds 10 BTC at the market (the client's funding): 9.5 free and 0.5 locked there.
      o = await seedOrg(h, { balances: { BTC: 1_000_000_000n } });
      double.setBalance('BTC', '9.5', '0.5');
      double.setBalance('ETH', '3'); // not listed at Cambio: not compared
    });
    after(async () => {
      await h.close();
      await double.close();
    });

    test("free + locked matches the books; after a fill the venue's extra decimals are truncated and still match", async () => {
      const first = await h.op('POST', '/reconciliation/run');
      assert.equal(first.status, 200, first.raw);
      assert.equal(first.body.data.matched, true);
      assert.equal(first.body.data.source, 'venue');
      assert.deepEqual(figure(first, 'BTC'), {
        assetSymbol: 'BTC',
        booksMinor: '1000000000',
        marketMinor: '1000000000',
        differenceMinor: '0',
        matched: true,
      });
      assert.equal(figure(first, 'ETH'), undefined);

      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '100000000' });
      const order = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
      assert.equal((await h.op('POST', `/orders/${order.body.data.id}/approve`)).body.data.state, 'completed');
      // The venue holds 64930.005 USDT after its commission; the books 64930.00.
      const second = await h.op('POST', '/reconciliation/run');
      assert.equal(second.body.data.matched, true, second.raw);
      assert.deepEqual(figure(second, 'USDT'), {
        assetSymbol: 'USDT',
        booksMinor: '6493000',
        marketMinor: '6493000',
        differenceMinor: '0',
        matched: true,
      });
      assert.equal(figure(second, 'BTC')?.marketMinor, '900000000');
    });

    test(
      "while the venue's balance call hangs, a run waits outside any transaction: an order is placed at once",
      { timeout: 60_000 },
      async () => {
        const account = double.holdNextAnswer('/api/v3/account');
        let answered = false;
        const run = h.op('POST', '/reconciliation/run').finally(() => {
          answered = true;
        });
        await account.arrived;
        let orderId = '';
        try {
          // The run holds nothing while it waits for the venue: quoting and placing an order are answered.
          const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '100000000' });
          assert.equal(q.status, 201, q.raw);
          const order = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
          assert.equal(order.status, 201, order.raw);
          assert.equal(order.body.data.state, 'pending_approval');
          orderId = order.body.data.id;
          assert.equal(answered, false, 'the balance call is still hanging');
        } finally {
          account.release(); // never left hanging, even when an assertion above fails
        }
        const r = await run;
        assert.equal(r.status, 200, r.raw);
        assert.equal(r.body.data.source, 'venue');
        assert.equal(r.body.data.matched, true, r.raw);
        assert.equal(figure(r, 'BTC')?.marketMinor, '900000000');
        // The order waits for approval with its hold: the platform's side at the market has not moved.
        assert.equal((await h.op('POST', `/orders/${orderId}/reject`, { reason: 'not needed' })).status, 200);
      },
    );

    test('a venue balance that differs stops money movements until a person resolves it', async () => {
      double.setBalance('USDT', '64000');
      const r = await h.op('POST', '/reconciliation/run');
      assert.equal(r.body.data.matched, false);
      assert.deepEqual(figure(r, 'USDT'), {
        assetSymbol: 'USDT',
        booksMinor: '6493000',
        marketMinor: '6400000',
        differenceMinor: '-93000',
        matched: false,
      });
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '100000000' });
      const blocked = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
      assert.equal(blocked.status, 409);
      assert.equal(blocked.body.code, 'ledger.ledger_not_reconciled');
      assert.equal((await h.op('POST', '/reconciliation/resolve')).status, 200);
    });

    test('a venue that cannot be read: 503 market.unavailable and no run recorded', async () => {
      double.fail('/api/v3/account', 500, 10);
      const runs = await h.store.db.selectFrom('reconciliation_runs').select('id').execute();
      const r = await h.op('POST', '/reconciliation/run');
      assert.equal(r.status, 503, r.raw);
      assert.equal(r.body.code, 'market.unavailable');
      assert.equal((await h.store.db.selectFrom('reconciliation_runs').select('id').execute()).length, runs.length);
      double.clearFaults();
    });
  });
}
