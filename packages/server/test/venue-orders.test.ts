import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { ManualClock } from '../src/domain/ports.ts';
import { recoverApproved } from '../src/usecases/orders/execute-approved.ts';
import { CcxtVenue } from '../src/venues/ccxt/ccxt-venue.ts';
import { ccxtPortsOf } from '../src/venues/index.ts';
import { makeExchange } from '../src/venues/ccxt/exchange.ts';
import { available, backends, held, listAssets, seedOrg, type Harness, type SeededOrg } from './harness.ts';
import { DOUBLE_KEY, DOUBLE_SECRET, startBinanceDouble, type BinanceDouble } from './venue-double/binance-double.ts';
import { BOOK, venueHarness } from './venue-double/venue-harness.ts';

// Selling 1 BTC into BOOK: 0.5 @ 65000 + 0.5 @ 64990 = 64995 USDT, the double's 0.1 % commission in USDT
// (32.5 + 32.495) leaves 64930.005: proceeds 6493000 USDT minor units, truncated to the asset's 2 decimals.
// The quote owes the client 6467002 (book-pricing.test.ts); the difference is the platform's.
const ONE_BTC = 100_000_000n;
const OWED = 6_467_002n;
const PROCEEDS = 6_493_000n;

async function approvedAtVenue(h: Harness, o: SeededOrg): Promise<{ id: string; approve: Awaited<ReturnType<Harness['op']>> }> {
  const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: ONE_BTC.toString() });
  assert.equal(q.status, 201, q.raw);
  assert.equal(q.body.data.amountQuoteMinor, OWED.toString());
  const order = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
  assert.equal(order.status, 201, order.raw);
  const approve = await h.op('POST', `/orders/${order.body.data.id}/approve`);
  assert.equal(approve.status, 200, approve.raw);
  return { id: order.body.data.id, approve };
}

/** The recovery task's pass, a moment after the approval (it takes orders approved before now). */
async function recover(h: Harness, deps: Harness['deps'] = h.deps): Promise<void> {
  (h.clock as ManualClock).advance(1);
  await recoverApproved(deps, 0);
}

const ordersFor = (double: BinanceDouble, id: string) => double.orders.filter((x) => x.clientOrderId === id);

for (const backend of backends()) {
  describe(`execution at the venue after approval (${backend})`, () => {
    let double: BinanceDouble;
    let h: Harness;
    let o: SeededOrg;
    before(async () => {
      double = await startBinanceDouble();
      h = await venueHarness(backend, double);
      o = await seedOrg(h, { balances: { BTC: 10n * ONE_BTC } });
    });
    beforeEach(() => {
      double.setBook('BTCUSDT', BOOK);
      double.setBalance('BTC', '100');
      double.clearFaults();
      double.account.thirdAssetFee = null;
    });
    after(async () => {
      await h.close();
      await double.close();
    });

    test("approval sends exactly one market order with the order id as client id; completed with the venue's figures", async () => {
      const btc = await available(h, o.key, 'BTC');
      const usdt = await available(h, o.key, 'USDT');
      const { id, approve } = await approvedAtVenue(h, o);
      assert.equal(approve.body.data.state, 'completed');
      const sent = ordersFor(double, id);
      assert.equal(sent.length, 1);
      assert.deepEqual(
        { side: sent[0]!.side, type: sent[0]!.type, origQty: sent[0]!.origQty, status: sent[0]!.status },
        { side: 'SELL', type: 'MARKET', origQty: '1', status: 'FILLED' },
      );
      const rec = await h.store.orders.get(id);
      assert.equal(rec?.state, 'completed');
      assert.equal(rec?.venue, 'binance');
      assert.equal(rec?.venueReference, String(sent[0]!.orderId));
      assert.equal(rec?.proceedsQuote, PROCEEDS);
      // The client gets exactly the quoted amount; the held BTC is gone.
      assert.equal(await available(h, o.key, 'USDT'), usdt + OWED);
      assert.equal(await available(h, o.key, 'BTC'), btc - ONE_BTC);
      assert.equal(await held(h, o.key, 'BTC'), 0n);
      // Asked again, the venue is not: the first outcome stands.
      await recover(h);
      assert.equal(ordersFor(double, id).length, 1);
    });

    test('a refusal by the venue fails the order with its reason and releases the hold exactly', async () => {
      const btc = await available(h, o.key, 'BTC');
      double.refuseNextOrder(-2010, 'Account has insufficient balance for requested action.');
      const { id, approve } = await approvedAtVenue(h, o);
      assert.equal(approve.body.data.state, 'failed');
      assert.match(approve.body.data.reason ?? (await h.store.orders.get(id))!.reason!, /insufficient balance/);
      assert.equal(await available(h, o.key, 'BTC'), btc);
      assert.equal(await held(h, o.key, 'BTC'), 0n);
      assert.equal(ordersFor(double, id).length, 0);
    });

    test('the connection cut after the venue recorded the order: approved, then completed once by looking it up, never a second order', async () => {
      const usdt = await available(h, o.key, 'USDT');
      double.dropAfterNextOrder();
      const { id, approve } = await approvedAtVenue(h, o);
      assert.equal(approve.body.data.state, 'approved');
      assert.equal(ordersFor(double, id).length, 1);
      assert.match((await h.op('GET', '/metrics')).raw, /cambio_venue_orders_awaiting_outcome 1\n/);
      // Two instances run the task at once (each its own CCXT client and lease owner).
      const other = new CcxtVenue(
        makeExchange({ id: 'binance', apiKey: DOUBLE_KEY, secret: DOUBLE_SECRET, url: double.origin, recvWindowMs: 5000 }),
        ccxtPortsOf(h.store),
        h.clock,
        { recvWindowMs: 5000 },
      );
      (h.clock as ManualClock).advance(1);
      await Promise.all([recoverApproved(h.deps, 0), recoverApproved({ ...h.deps, venue: other }, 0)]);
      const rec = await h.store.orders.get(id);
      assert.equal(rec?.state, 'completed');
      assert.equal(rec?.proceedsQuote, PROCEEDS); // the commissions read from the order's trades
      assert.equal(ordersFor(double, id).length, 1);
      assert.equal(await available(h, o.key, 'USDT'), usdt + OWED);
      assert.match((await h.op('GET', '/metrics')).raw, /cambio_venue_orders_awaiting_outcome 0\n/);
      (h.clock as ManualClock).advance(60_000);
      await recover(h);
      assert.equal(ordersFor(double, id).length, 1);
    });

    test('while the outcome at the venue is not known (sending, unknown), the desk cannot fill or fail the order: 409, nothing changes', async () => {
      const venueState = async (id: string) =>
        (await h.store.db.selectFrom('venue_orders').select('state').where('order_id', '=', id).executeTakeFirstOrThrow()).state;
      const byHand = async (id: string, expected: string) => {
        const fill = await h.op('POST', `/orders/${id}/fill`, {
          venue: 'binance',
          venueReference: 'by-hand',
          proceedsQuoteMinor: '6490000',
        });
        assert.equal(fill.status, 409, fill.raw);
        assert.equal(fill.body.code, 'orders.venue_outcome_pending');
        assert.match(fill.body.message ?? '', new RegExp(`not known yet \\(${expected}\\)`));
        const fail = await h.op('POST', `/orders/${id}/fail`, { reason: 'by hand' });
        assert.equal(fail.status, 409, fail.raw);
        assert.equal(fail.body.code, 'orders.venue_outcome_pending');
      };
      const usdt = await available(h, o.key, 'USDT');
      const heldBtc = await held(h, o.key, 'BTC');

      // The connection cut after the venue recorded the order: its row is unknown.
      double.dropAfterNextOrder();
      const { id, approve } = await approvedAtVenue(h, o);
      assert.equal(approve.body.data.state, 'approved');
      assert.equal(await venueState(id), 'unknown');
      await byHand(id, 'unknown');
      assert.equal((await h.store.orders.get(id))?.state, 'approved');
      assert.equal(await held(h, o.key, 'BTC'), heldBtc + ONE_BTC);
      assert.equal(await available(h, o.key, 'USDT'), usdt);

      // Once the lookup knows the outcome the order settles by itself, once; the desk's fill is then too late.
      await recover(h);
      assert.equal((await h.store.orders.get(id))?.state, 'completed');
      assert.equal(await available(h, o.key, 'USDT'), usdt + OWED);
      assert.equal(await held(h, o.key, 'BTC'), heldBtc);
      assert.equal(ordersFor(double, id).length, 1);
      const late = await h.op('POST', `/orders/${id}/fill`, { venue: 'binance', venueReference: 'by-hand', proceedsQuoteMinor: '6490000' });
      assert.equal(late.status, 409);
      assert.equal(late.body.code, 'orders.not_awaiting_execution');

      // The order is at the venue and its answer held: the row is sending.
      const recorded = double.holdNextOrder();
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: ONE_BTC.toString() });
      const order = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
      assert.equal(order.status, 201, order.raw);
      const approving = h.op('POST', `/orders/${order.body.data.id}/approve`);
      await recorded;
      assert.equal(await venueState(order.body.data.id), 'sending');
      await byHand(order.body.data.id, 'sending');
      assert.equal((await h.store.orders.get(order.body.data.id))?.state, 'approved');
      // The client gives up on the held answer: approved, its outcome looked up and settled once.
      assert.equal((await approving).body.data.state, 'approved');
      await recover(h);
      assert.equal((await h.store.orders.get(order.body.data.id))?.state, 'completed');
      assert.equal(ordersFor(double, order.body.data.id).length, 1);
    });

    test('no answer and no order at the venue: sent again, with the same client id, only after the recvWindow has passed', async () => {
      double.fail('/api/v3/order', 503, 1); // the venue failed before recording anything
      const { id, approve } = await approvedAtVenue(h, o);
      assert.equal(approve.body.data.state, 'approved');
      assert.equal(ordersFor(double, id).length, 0);
      // The venue says it has no such order, but the first request could still arrive in time: wait.
      await recover(h);
      assert.equal((await h.store.orders.get(id))?.state, 'approved');
      assert.equal(ordersFor(double, id).length, 0);
      (h.clock as ManualClock).advance(6_001);
      const other = new CcxtVenue(
        makeExchange({ id: 'binance', apiKey: DOUBLE_KEY, secret: DOUBLE_SECRET, url: double.origin, recvWindowMs: 5000 }),
        ccxtPortsOf(h.store),
        h.clock,
        { recvWindowMs: 5000 },
      );
      (h.clock as ManualClock).advance(1);
      await Promise.all([recoverApproved(h.deps, 0), recoverApproved({ ...h.deps, venue: other }, 0)]);
      assert.equal((await h.store.orders.get(id))?.state, 'completed');
      assert.equal(ordersFor(double, id).length, 1);
    });

    test("a partial fill waits for the desk with the venue's figures; the desk completes it", async () => {
      double.expireNextOrderAfter('0.4');
      const { id, approve } = await approvedAtVenue(h, o);
      assert.equal(approve.body.data.state, 'approved');
      await recover(h);
      assert.equal((await h.store.orders.get(id))?.state, 'approved');
      assert.equal(ordersFor(double, id).length, 1);
      const row = await h.store.db.selectFrom('venue_orders').selectAll().where('order_id', '=', id).executeTakeFirstOrThrow();
      assert.equal(row.state, 'partial');
      assert.equal(row.executed_qty, '0.4');
      assert.equal(row.quote_qty, '26000');
      const fill = await h.op('POST', `/orders/${id}/fill`, {
        venue: 'binance',
        venueReference: row.venue_order_id,
        proceedsQuoteMinor: '6490000',
      });
      assert.equal(fill.status, 200, fill.raw);
      assert.equal(fill.body.data.state, 'completed');
    });

    test("a fee charged in a third asset listed at Cambio: proceeds untouched, the fee booked as the platform's cost in an entry of its own", async () => {
      await listAssets(h, { BNB: 8 });
      double.account.thirdAssetFee = { asset: 'BNB', amount: '0.00012345' }; // per fill: two fills
      const usdt = await available(h, o.key, 'USDT');
      const { id, approve } = await approvedAtVenue(h, o);
      assert.equal(approve.body.data.state, 'completed');
      const rec = await h.store.orders.get(id);
      assert.equal(rec?.proceedsQuote, 6_499_500n); // 64995 USDT, no fee in USDT
      assert.equal(await available(h, o.key, 'USDT'), usdt + OWED);
      const entries = await h.store.db
        .selectFrom('journal_entries')
        .select(['id', 'kind', 'organization_id'])
        .where('reference_id', '=', id)
        .orderBy('seq')
        .execute();
      assert.deepEqual(
        entries.map((e) => e.kind),
        ['order_hold', 'order_settlement', 'order_execution', 'venue_fee'],
      );
      const fee = entries[3]!;
      assert.equal(fee.organization_id, null);
      const postings = await h.store.db
        .selectFrom('postings')
        .select(['owner_id', 'asset_symbol', 'account_kind', 'amount'])
        .where('entry_id', '=', fee.id)
        .orderBy('account_kind')
        .execute();
      assert.deepEqual(
        postings.map((p) => ({ ...p, amount: String(p.amount) })),
        [
          { owner_id: 'platform', asset_symbol: 'BNB', account_kind: 'market', amount: '24690' },
          { owner_id: 'platform', asset_symbol: 'BNB', account_kind: 'revenue', amount: '-24690' },
        ],
      );
      const settlement = await h.store.db.selectFrom('postings').select(['asset_symbol']).where('entry_id', '=', entries[1]!.id).execute();
      assert.ok(
        settlement.every((p) => p.asset_symbol !== 'BNB'),
        'the settlement itself has no BNB',
      );
    });

    test('a fee charged in an asset not listed at Cambio: the order waits, saying which asset to list; once listed it completes with the fee booked', async () => {
      double.account.thirdAssetFee = { asset: 'FEECOIN', amount: '0.5' };
      const { id, approve } = await approvedAtVenue(h, o);
      assert.equal(approve.body.data.state, 'approved');
      assert.equal(ordersFor(double, id).length, 1);
      const row = await h.store.db
        .selectFrom('venue_orders')
        .select(['state', 'reason'])
        .where('order_id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(row.state, 'unknown');
      assert.match(row.reason ?? '', /fee in FEECOIN, which is not listed at Cambio: list FEECOIN/);
      await recover(h);
      assert.equal((await h.store.orders.get(id))?.state, 'approved');
      await listAssets(h, { FEECOIN: 2 });
      await recover(h);
      assert.equal((await h.store.orders.get(id))?.state, 'completed');
      assert.equal(ordersFor(double, id).length, 1);
      const fee = await h.store.db
        .selectFrom('postings')
        .select(['account_kind', 'amount'])
        .where('reference_id', '=', id)
        .where('entry_kind', '=', 'venue_fee')
        .orderBy('account_kind')
        .execute();
      assert.deepEqual(
        fee.map((p) => [p.account_kind, String(p.amount)]),
        [
          ['market', '100'],
          ['revenue', '-100'],
        ],
      );
    });

    test("the desk's view: health, the book behind each pair, executions with the venue's figures; execution latency in /metrics", async () => {
      double.expireNextOrderAfter('0.4');
      const { id } = await approvedAtVenue(h, o);
      const view = await h.op('GET', '/venue');
      assert.equal(view.status, 200, view.raw);
      const v = view.body.data;
      assert.deepEqual({ kind: v.kind, exchange: v.exchange, health: v.health }, { kind: 'ccxt', exchange: 'binance', health: 'ok' });
      assert.ok(v.partialFills >= 1);
      const pair = v.pairs.find((p: { baseSymbol: string; quoteSymbol: string }) => p.baseSymbol === 'BTC' && p.quoteSymbol === 'USDT');
      assert.deepEqual(
        { ...pair, bookAgeMs: typeof pair.bookAgeMs },
        {
          baseSymbol: 'BTC',
          quoteSymbol: 'USDT',
          venueSymbol: 'BTC/USDT',
          maxBookAgeMs: 2000,
          bookAgeMs: 'number',
          fresh: true,
          bestBid: '65000',
          bestBidQty: '0.5',
          bestAsk: '65010',
          bestAskQty: '0.5',
        },
      );
      const partial = await h.op('GET', '/venue/executions?state=partial');
      assert.equal(partial.status, 200, partial.raw);
      const x = partial.body.data.find((r: { orderId: string }) => r.orderId === id);
      assert.deepEqual(
        {
          state: x.state,
          orderState: x.orderState,
          executedQty: x.executedQty,
          quoteQty: x.quoteQty,
          amountSent: x.amountSent,
          owed: x.owedQuoteMinor,
          side: x.side,
        },
        {
          state: 'partial',
          orderState: 'approved',
          executedQty: '0.4',
          quoteQty: '26000',
          amountSent: '1.00000000',
          owed: OWED.toString(),
          side: 'sell',
        },
      );
      assert.equal(x.venueOrderId, String(ordersFor(double, id)[0]!.orderId));
      const all = await h.op('GET', '/venue/executions?limit=200');
      assert.ok(
        all.body.data.some(
          (r: { state: string; proceedsQuoteMinor: string | null }) => r.state === 'filled' && r.proceedsQuoteMinor === PROCEEDS.toString(),
        ),
      );
      assert.equal((await h.op('GET', '/venue/executions?state=bogus')).status, 400);
      // A venue failure shows as the last error, and as failing until the venue answers again.
      double.fail('/api/v3/depth', 503, 100);
      (h.clock as ManualClock).advance(5_000);
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: ONE_BTC.toString() });
      assert.equal(q.status, 503, q.raw);
      const failing = (await h.op('GET', '/venue')).body.data;
      assert.equal(failing.health, 'failing');
      assert.match(failing.lastError.kind, /^book:/);
      double.clearFaults();
      const metrics = (await h.op('GET', '/metrics')).raw;
      assert.match(metrics, /cambio_venue_execution_seconds_count \d+/);
      assert.match(metrics, /cambio_venue_errors_total\{kind="book:/);
      await h.op('POST', `/orders/${id}/fill`, { venue: 'binance', venueReference: x.venueOrderId, proceedsQuoteMinor: '2590000' });
    });
  });
}
