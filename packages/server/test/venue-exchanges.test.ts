import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { ManualClock } from '../src/domain/ports.ts';
import { formatDecimal } from '../src/domain/money.ts';
import { recoverApproved } from '../src/usecases/orders/execute-approved.ts';
import { pollVenueDepositsTask, refreshVenueWalletsTask } from '../src/venue-tasks.ts';
import { adapterFor } from '../src/venues/ccxt/adapters.ts';
import { available, backends, held, listAssets, makeHarness, SECRET, seedOrg, type Harness, type SeededOrg } from './harness.ts';
import { EXCHANGES, startExchangeDouble } from './venue-double/doubles.ts';
import type { ExchangeDouble } from './venue-double/exchange-double.ts';
import { BOOK, BUY_PAIR, SELL_PAIR } from './venue-double/venue-harness.ts';

// The same scenarios at every exchange Cambio reads (docs/market.md "Exchanges"), each through the real CCXT
// against a loopback double of that exchange's REST API. Selling 1 BTC into BOOK: 0.5 @ 65000 + 0.5 @ 64990
// = 64995 USDT; each double charges 0.1 % in USDT (32.5 + 32.495), leaving 64930.005: proceeds 6493000
// USDT minor units at 2 decimals. The quote owes the client 6467002 (book-pricing.test.ts).
const ONE_BTC = 100_000_000n;
const OWED = 6_467_002n;
const PROCEEDS = 6_493_000n;

type Fig = { assetSymbol: string; booksMinor: string; marketMinor: string; matched: boolean };

for (const exchange of EXCHANGES) {
  for (const backend of backends()) {
    describe(`${exchange} through its adapter (${backend})`, () => {
      let double: ExchangeDouble;
      let h: Harness;
      let o: SeededOrg;
      const cid = (orderId: string) => adapterFor(exchange).clientOrderId(orderId);
      before(async () => {
        double = await startExchangeDouble(exchange);
        double.setBook(BOOK);
        h = await makeHarness({
          backend,
          manualClock: true,
          env: { CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET, CAMBIO_VENUE_URL: double.origin, ...double.env },
        });
        await listAssets(h, { BTC: 8, USDT: 2 });
        for (const [path, body] of [
          ['/market/pairs/BTC/USDT', SELL_PAIR],
          ['/market/pairs/USDT/BTC', BUY_PAIR],
        ] as const) {
          const r = await h.op('PUT', path, body);
          assert.equal(r.status, 200, r.raw);
        }
        o = await seedOrg(h, { balances: { BTC: 10n * ONE_BTC } });
      });
      beforeEach(() => {
        double.setBook(BOOK);
        double.setBalance('BTC', '100');
        double.clearFaults();
      });
      after(async () => {
        await h?.close();
        await double?.close();
        assert.deepEqual(double.unknown, [], 'every request the adapter made is one the double knows');
      });

      const quote = (amountBaseMinor: bigint) =>
        h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: amountBaseMinor.toString() });
      const approved = async () => {
        const q = await quote(ONE_BTC);
        assert.equal(q.status, 201, q.raw);
        const order = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
        assert.equal(order.status, 201, order.raw);
        const approve = await h.op('POST', `/orders/${order.body.data.id}/approve`);
        assert.equal(approve.status, 200, approve.raw);
        return { id: order.body.data.id as string, state: approve.body.data.state as string };
      };
      const recover = async (ms = 1) => {
        (h.clock as ManualClock).advance(ms);
        await recoverApproved(h.deps, 0);
      };

      test("a quote is priced from the exchange's book, exactly", async () => {
        const q = await quote(ONE_BTC);
        assert.equal(q.status, 201, q.raw);
        assert.equal(q.body.data.amountQuoteMinor, OWED.toString());
        const markets = await h.op('GET', '/venue/markets');
        assert.equal(markets.status, 200, markets.raw);
        const m = (markets.body.data as Array<{ symbol: string; baseSymbol: string; quoteSymbol: string }>).find(
          (x) => x.symbol === 'BTC/USDT',
        );
        assert.deepEqual(m && { base: m.baseSymbol, quote: m.quoteSymbol }, { base: 'BTC', quote: 'USDT' });
        // What the exchange's module cannot do is declared: crypto withdrawals are sent by Binance's only (docs/market.md).
        assert.equal(h.deps.venue.cryptoPayouts !== undefined, exchange === 'binance');
      });

      test('a book too thin for the amount: 422 quotes.amount_out_of_range, nothing created', async () => {
        double.setBook({ bids: [['65000.00', '0.5']], asks: BOOK.asks });
        (h.clock as ManualClock).advance(5_000); // the book held is too old: read again
        const thin = await quote(ONE_BTC);
        assert.equal(thin.status, 422, thin.raw);
        assert.equal(thin.body.code, 'quotes.amount_out_of_range');
      });

      test('approval sends one market order with the mapped client id and settles exactly from the venue figures', async () => {
        (h.clock as ManualClock).advance(5_000);
        const usdt = await available(h, o.key, 'USDT');
        const btc = await available(h, o.key, 'BTC');
        const { id, state } = await approved();
        assert.equal(state, 'completed');
        const sent = double.ordersWithClientId(cid(id));
        assert.equal(sent.length, 1);
        assert.deepEqual({ side: sent[0]!.side, executed: sent[0]!.executedQty }, { side: 'SELL', executed: '1' });
        const rec = await h.store.orders.get(id);
        assert.equal(rec?.venue, exchange);
        assert.ok(rec?.venueReference, 'the venue order id is recorded');
        assert.equal(rec?.proceedsQuote, PROCEEDS);
        assert.equal(await available(h, o.key, 'USDT'), usdt + OWED);
        assert.equal(await available(h, o.key, 'BTC'), btc - ONE_BTC);
        assert.equal(await held(h, o.key, 'BTC'), 0n);
        await recover();
        assert.equal(double.ordersWithClientId(cid(id)).length, 1);
      });

      test("a refusal by the exchange fails the order with the exchange's reason; the hold is released", async () => {
        (h.clock as ManualClock).advance(5_000);
        const btc = await available(h, o.key, 'BTC');
        double.refuseNextOrder();
        const { id, state } = await approved();
        assert.equal(state, 'failed');
        assert.match((await h.store.orders.get(id))?.reason ?? '', /insufficient/i);
        assert.equal(await available(h, o.key, 'BTC'), btc);
        assert.equal(await held(h, o.key, 'BTC'), 0n);
        assert.equal(double.ordersWithClientId(cid(id)).length, 0);
      });

      test('the connection cut after the exchange executed: approved, then completed once by the client id lookup, never twice', async () => {
        (h.clock as ManualClock).advance(5_000);
        const usdt = await available(h, o.key, 'USDT');
        double.dropAfterNextOrder();
        const { id, state } = await approved();
        assert.equal(state, 'approved');
        assert.equal(double.ordersWithClientId(cid(id)).length, 1);
        await recover();
        const rec = await h.store.orders.get(id);
        assert.equal(rec?.state, 'completed');
        assert.equal(rec?.proceedsQuote, PROCEEDS);
        assert.equal(await available(h, o.key, 'USDT'), usdt + OWED);
        await recover(60_000);
        assert.equal(double.ordersWithClientId(cid(id)).length, 1);
      });

      test('a 5xx before the exchange recorded the order: looked up, found missing, sent again with the same client id only after the window', async () => {
        (h.clock as ManualClock).advance(5_000);
        const usdt = await available(h, o.key, 'USDT');
        double.fail(double.orderPath, 503, 1, 'POST');
        const { id, state } = await approved();
        assert.equal(state, 'approved');
        assert.equal(double.ordersWithClientId(cid(id)).length, 0);
        // Within the first request's window the exchange's "no such order" is not enough to send it again.
        await recover();
        assert.equal((await h.store.orders.get(id))?.state, 'approved');
        assert.equal(double.ordersWithClientId(cid(id)).length, 0);
        await recover(7_000);
        assert.equal((await h.store.orders.get(id))?.state, 'completed');
        assert.equal(double.ordersWithClientId(cid(id)).length, 1);
        assert.equal(await available(h, o.key, 'USDT'), usdt + OWED);
      });

      test("a venue wallet is the exchange account's deposit address; completed deposits in its history are credited once", async () => {
        double.setDepositAddress('BTC', 'BTC', `bc1q${exchange}venue0`);
        const put = await h.op('PUT', '/wallets/BTC', { source: 'venue', network: 'BTC' });
        assert.equal(put.status, 200, put.raw);
        assert.equal(put.body.data.address, `bc1q${exchange}venue0`);
        double.setDepositAddress('BTC', 'BTC', `bc1q${exchange}venue1`);
        await refreshVenueWalletsTask.run(h.deps);
        const wallets = (await h.call(o.key, 'GET', '/deposits/wallets')).body.data as Array<{ assetSymbol: string; address: string }>;
        assert.equal(wallets.find((w) => w.assetSymbol === 'BTC')?.address, `bc1q${exchange}venue1`);

        const btc = await available(h, o.key, 'BTC');
        const decl = await h.call(o.key, 'POST', '/deposits/declarations', {
          assetSymbol: 'BTC',
          assetDecimals: 8,
          declaredAmountMinor: '1000000',
        });
        assert.equal(decl.status, 201, decl.raw);
        const expected = BigInt(decl.body.data.expectedAmountMinor);
        double.addDeposit({
          coin: 'BTC',
          network: 'BTC',
          amount: formatDecimal(expected, 8),
          txId: `${exchange}-tx-done`,
          completed: true,
        });
        double.addDeposit({ coin: 'BTC', network: 'BTC', amount: '0.5', txId: `${exchange}-tx-pending`, completed: false });
        await pollVenueDepositsTask.run(h.deps);
        await pollVenueDepositsTask.run(h.deps);
        assert.equal(await available(h, o.key, 'BTC'), btc + expected);
        const row = (txid: string) => h.store.db.selectFrom('deposits').selectAll().where('txid', '=', txid).executeTakeFirst();
        assert.equal((await row(`${exchange}-tx-done`))?.state, 'credited');
        assert.equal(await row(`${exchange}-tx-pending`), undefined);
      });
      test("reconciliation compares the books with the exchange account's balances, read exactly", async () => {
        const books = await h.op('POST', '/reconciliation/run');
        assert.equal(books.status, 200, books.raw);
        const booksBtc = BigInt((books.body.data.figures as Fig[]).find((f) => f.assetSymbol === 'BTC')!.booksMinor);
        const booksUsdt = BigInt((books.body.data.figures as Fig[]).find((f) => f.assetSymbol === 'USDT')!.booksMinor);
        // The account holds what the books say, part of it locked, with decimals beyond the asset's (truncated).
        double.setBalance('BTC', `${formatDecimal(booksBtc - ONE_BTC, 8)}9`, '1');
        double.setBalance('USDT', `${formatDecimal(booksUsdt, 2)}7`, '0');
        const r = await h.op('POST', '/reconciliation/run');
        assert.equal(r.status, 200, r.raw);
        assert.equal(r.body.data.matched, true, r.raw);
        const fig = (r.body.data.figures as Fig[]).find((f) => f.assetSymbol === 'BTC');
        assert.deepEqual(fig && { market: fig.marketMinor, matched: fig.matched }, { market: booksBtc.toString(), matched: true });
      });
    });
  }
}
