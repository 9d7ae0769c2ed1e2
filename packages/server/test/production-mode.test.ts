import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  available,
  backends,
  held,
  listAssets,
  makeHarness,
  SECRET,
  seedOrg,
  usableDestination,
  type Backend,
  type Harness,
  type SeededOrg,
} from './harness.ts';

// BTC/USD at 60000 with a 0.5% spread: 0.01 BTC (1000000) → the client is owed 59700 USD minor units.
const A = 1_000_000n;
const Q = 59_700n;
const FILL = { venue: 'Kraken OTC', venueReference: 'kr-7781', proceedsQuoteMinor: '59940' };

async function platform(h: Harness, asset: string, kind: string): Promise<bigint> {
  const r = await h.store.db
    .selectFrom('accounts')
    .select('balance')
    .where('owner_id', '=', 'platform')
    .where('asset_symbol', '=', asset)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return BigInt(r?.balance ?? '0');
}

async function approvedOrder(h: Harness, o: SeededOrg): Promise<string> {
  const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: A.toString() });
  assert.equal(q.status, 201, q.raw);
  assert.equal(q.body.data.amountQuoteMinor, Q.toString());
  const order = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
  assert.equal(order.status, 201, order.raw);
  const r = await h.op('POST', `/orders/${order.body.data.id}/approve`);
  assert.equal(r.status, 200, r.raw);
  assert.equal(r.body.data.state, 'approved');
  return order.body.data.id;
}

/** A production store with BTC/USD listed at 60000, 0.5 % spread. */
async function productionHarness(backend: Backend): Promise<Harness> {
  const h = await makeHarness({ backend, env: { CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET, CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
  await listAssets(h, { USD: 2, BTC: 8 });
  const pair = await h.op('PUT', '/market/pairs/BTC/USD', {
    midRate: '60000',
    spreadBps: 50,
    feeBps: 10,
    fixedFeeQuoteMinor: '0',
    minBaseMinor: '1000',
    maxBaseMinor: '100000000',
  });
  assert.equal(pair.status, 200, pair.raw);
  return h;
}

/** A USD withdrawal of `amount` minor units to a usable destination of the organization, pending approval. */
async function requestedWithdrawal(h: Harness, o: SeededOrg, amount: bigint): Promise<string> {
  const dst = await usableDestination(h, o.key);
  const w = await h.call(o.key, 'POST', '/withdrawals', {
    destinationId: dst,
    assetSymbol: 'USD',
    assetDecimals: 2,
    amountMinor: amount.toString(),
  });
  assert.equal(w.status, 201, w.raw);
  return w.body.data.id;
}

/** Production (docs/design/money-and-states.md): nothing is simulated; the desk executes and pays out, and records it once. */
for (const backend of backends()) {
  describe(`production: the desk executes [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await productionHarness(backend);
    });
    after(async () => h?.close());

    test('an approved order waits for the desk; the fill completes it: the client gets the quote, the platform books its margin', async () => {
      const o = await seedOrg(h, { balances: { BTC: 5_000_000n } });
      const revenueBefore = await platform(h, 'USD', 'revenue');
      const id = await approvedOrder(h, o);
      assert.equal(await held(h, o.key, 'BTC'), A);
      assert.equal(await available(h, o.key, 'USD'), 0n);
      assert.equal((await h.call(o.key, 'GET', '/orders')).body.data[0].state, 'approved');

      const r = await h.op('POST', `/orders/${id}/fill`, FILL);
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.state, 'completed');
      assert.equal(r.body.data.proceedsQuoteMinor, '59940');
      assert.equal(r.body.data.venue, 'Kraken OTC');
      assert.equal(r.body.data.venueReference, 'kr-7781');
      assert.equal(r.body.data.quote.amountMinor, Q.toString());
      assert.equal(await available(h, o.key, 'USD'), Q);
      assert.equal(await held(h, o.key, 'BTC'), 0n);
      assert.equal(await available(h, o.key, 'BTC'), 4_000_000n);
      assert.equal((await platform(h, 'USD', 'revenue')) - revenueBefore, 240n);
      const audit = await h.op('GET', `/audit?subjectId=${id}`);
      assert.deepEqual(
        audit.body.data.map((a: { action: string }) => a.action),
        ['order.complete', 'order.approve'],
      );

      for (const [path, body] of [
        ['fill', FILL],
        ['fail', { reason: 'late' }],
      ] as const) {
        const again = await h.op('POST', `/orders/${id}/${path}`, body);
        assert.deepEqual([again.status, again.body.code], [409, 'orders.not_awaiting_execution'], again.raw);
      }
      assert.equal(await available(h, o.key, 'USD'), Q);
      assert.equal((await platform(h, 'USD', 'revenue')) - revenueBefore, 240n);
    });

    test("a fill below the quote is the platform's loss, booked as negative revenue; the client still gets the quote", async () => {
      const o = await seedOrg(h, { balances: { BTC: 5_000_000n } });
      const revenueBefore = await platform(h, 'USD', 'revenue');
      const id = await approvedOrder(h, o);
      const r = await h.op('POST', `/orders/${id}/fill`, { ...FILL, proceedsQuoteMinor: 59_650 });
      assert.equal(r.status, 200, r.raw);
      assert.equal(await available(h, o.key, 'USD'), Q);
      assert.equal((await platform(h, 'USD', 'revenue')) - revenueBefore, -50n);
    });

    test('two concurrent fills settle once', async () => {
      const o = await seedOrg(h, { balances: { BTC: 5_000_000n } });
      const id = await approvedOrder(h, o);
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => h.op('POST', `/orders/${id}/fill`, { ...FILL, venueReference: `ref-${i}` })),
      );
      assert.equal(results.filter((r) => r.status === 200).length, 1);
      for (const r of results.filter((x) => x.status !== 200))
        assert.deepEqual([r.status, r.body.code], [409, 'orders.not_awaiting_execution']);
      assert.equal(await available(h, o.key, 'USD'), Q);
      const entries = await h.store.db.selectFrom('journal_entries').select('kind').where('reference_id', '=', id).execute();
      assert.deepEqual(entries.map((e) => e.kind).sort(), ['order_execution', 'order_hold', 'order_settlement']);
    });

    test('a fill racing a failure: one wins, the other is 409', async () => {
      const o = await seedOrg(h, { balances: { BTC: 5_000_000n } });
      const id = await approvedOrder(h, o);
      const [fill, fail] = await Promise.all([
        h.op('POST', `/orders/${id}/fill`, FILL),
        h.op('POST', `/orders/${id}/fail`, { reason: 'venue rejected' }),
      ]);
      assert.deepEqual([fill.status, fail.status].sort(), [200, 409]);
      const state = (await h.call(o.key, 'GET', '/orders')).body.data[0].state;
      if (fill.status === 200) {
        assert.equal(state, 'completed');
        assert.equal(await available(h, o.key, 'USD'), Q);
      } else {
        assert.equal(state, 'failed');
        assert.equal(await available(h, o.key, 'USD'), 0n);
        assert.equal(await available(h, o.key, 'BTC'), 5_000_000n);
      }
      assert.equal(await held(h, o.key, 'BTC'), 0n);
    });

    test('a failure releases the hold and credits nothing, once', async () => {
      const o = await seedOrg(h, { balances: { BTC: 5_000_000n } });
      const id = await approvedOrder(h, o);
      const r = await h.op('POST', `/orders/${id}/fail`, { reason: 'the venue refused the size' });
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.state, 'failed');
      assert.equal(r.body.data.reason, 'the venue refused the size');
      assert.equal(await available(h, o.key, 'BTC'), 5_000_000n);
      assert.equal(await held(h, o.key, 'BTC'), 0n);
      assert.equal(await available(h, o.key, 'USD'), 0n);
      const again = await h.op('POST', `/orders/${id}/fill`, FILL);
      assert.deepEqual(
        [again.status, again.body.code, again.body.message],
        [
          409,
          'orders.not_awaiting_execution',
          'The exchange request is not awaiting execution (failed): a fill or a failure is recorded once, on an approved request.',
        ],
      );
      assert.equal(await available(h, o.key, 'USD'), 0n);
    });

    test('a fill before approval, of an unknown order, or with a bad amount changes nothing', async () => {
      const o = await seedOrg(h, { balances: { BTC: 5_000_000n } });
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: A.toString() });
      const pending = (await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id })).body.data.id;
      const early = await h.op('POST', `/orders/${pending}/fill`, FILL);
      assert.deepEqual([early.status, early.body.code], [409, 'orders.not_awaiting_execution']);
      assert.equal((await h.op('POST', '/orders/ord_nope/fill', FILL)).status, 404);
      await h.op('POST', `/orders/${pending}/approve`);
      for (const bad of [
        { ...FILL, proceedsQuoteMinor: '-1' },
        { ...FILL, proceedsQuoteMinor: '1.5' },
        { ...FILL, venue: '' },
        { venue: 'x', proceedsQuoteMinor: '1' },
      ]) {
        const r = await h.op('POST', `/orders/${pending}/fill`, bad);
        assert.equal(r.status, 422, r.raw);
      }
      assert.equal(await held(h, o.key, 'BTC'), A);
      assert.equal(await available(h, o.key, 'USD'), 0n);
    });

    test('an approved withdrawal waits for the payout; the payout completes it once; concurrent payouts settle once', async () => {
      const o = await seedOrg(h, { balances: { USD: 100_000n } });
      const w = await requestedWithdrawal(h, o, 25_000n);
      const ap = await h.op('POST', `/withdrawals/${w}/approve`);
      assert.equal(ap.status, 200, ap.raw);
      assert.equal(ap.body.data.state, 'approved');
      assert.equal(ap.body.data.payoutReference, null);
      assert.equal(await held(h, o.key, 'USD'), 25_000n);
      const marketBefore = await platform(h, 'USD', 'market');

      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => h.op('POST', `/withdrawals/${w}/payout`, { payoutReference: `wire-${i}` })),
      );
      const won = results.filter((r) => r.status === 200);
      assert.equal(won.length, 1);
      assert.equal(won[0]!.body.data.state, 'completed');
      assert.match(won[0]!.body.data.payoutReference, /^wire-\d$/);
      for (const r of results.filter((x) => x.status !== 200))
        assert.deepEqual([r.status, r.body.code], [409, 'withdrawals.not_awaiting_payout']);
      assert.equal(await held(h, o.key, 'USD'), 0n);
      assert.equal(await available(h, o.key, 'USD'), 75_000n);
      assert.equal((await platform(h, 'USD', 'market')) - marketBefore, 25_000n);
      assert.equal((await h.call(o.key, 'GET', '/withdrawals')).body.data[0].state, 'completed');
      const fail = await h.op('POST', `/withdrawals/${w}/fail`, { reason: 'bounced' });
      assert.deepEqual([fail.status, fail.body.code], [409, 'withdrawals.not_awaiting_payout']);
    });

    test('a payout failure releases the hold, once; a pending withdrawal cannot be paid out', async () => {
      const o = await seedOrg(h, { balances: { USD: 100_000n } });
      const w = await requestedWithdrawal(h, o, 40_000n);
      const early = await h.op('POST', `/withdrawals/${w}/payout`, { payoutReference: 'wire-1' });
      assert.deepEqual([early.status, early.body.code], [409, 'withdrawals.not_awaiting_payout']);
      await h.op('POST', `/withdrawals/${w}/approve`);
      const r = await h.op('POST', `/withdrawals/${w}/fail`, { reason: 'the bank returned the transfer' });
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.state, 'failed');
      assert.equal(r.body.data.reason, 'the bank returned the transfer');
      assert.equal(await available(h, o.key, 'USD'), 100_000n);
      assert.equal(await held(h, o.key, 'USD'), 0n);
      const again = await h.op('POST', `/withdrawals/${w}/payout`, { payoutReference: 'wire-2' });
      assert.deepEqual([again.status, again.body.code], [409, 'withdrawals.not_awaiting_payout']);
      assert.equal((await h.op('POST', '/withdrawals/wdr_nope/payout', { payoutReference: 'x' })).status, 404);
    });
  });

  describe(`production: reconciliation after the desk's fills and payouts [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await productionHarness(backend);
    });
    after(async () => h?.close());

    test('compares like with like: what the desk holds after a fill and a payout matches the books to the unit', async () => {
      const bare = await h.op('POST', '/reconciliation/run');
      assert.deepEqual([bare.status, bare.body.code], [422, 'reconciliation.market_balances_required']);
      const o = await seedOrg(h, { balances: { BTC: 5_000_000n, USD: 100_000n } });
      const id = await approvedOrder(h, o);
      assert.equal((await h.op('POST', `/orders/${id}/fill`, FILL)).status, 200);
      const w = await requestedWithdrawal(h, o, 25_000n);
      assert.equal((await h.op('POST', `/withdrawals/${w}/approve`)).status, 200);
      assert.equal((await h.op('POST', `/withdrawals/${w}/payout`, { payoutReference: 'wire-9' })).status, 200);
      // The desk sold 0.01 BTC for 599.40 USD and wired 250.00 USD out.
      const desk = [
        { assetSymbol: 'BTC', amountMinor: '4000000' },
        { assetSymbol: 'USD', amountMinor: (100_000n - 25_000n + 59_940n).toString() },
      ];
      const run = await h.op('POST', '/reconciliation/run', { marketBalances: desk });
      assert.equal(run.status, 200, run.raw);
      assert.equal(run.body.data.matched, true, run.raw);
      const off = await h.op('POST', '/reconciliation/run', { marketBalances: [desk[0], { assetSymbol: 'USD', amountMinor: '134939' }] });
      assert.equal(off.body.data.matched, false);
      assert.equal(off.body.data.figures.find((f: { assetSymbol: string }) => f.assetSymbol === 'USD').differenceMinor, '-1');
    });
  });

  describe(`sandbox: the simulated venue settles by itself [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
    });
    after(async () => h?.close());

    test('fills, payouts and failures recorded by hand are 409 market.venue_simulated', async () => {
      for (const path of ['/orders/ord_x/fill', '/orders/ord_x/fail', '/withdrawals/wdr_x/payout', '/withdrawals/wdr_x/fail']) {
        const body = path.endsWith('fill') ? FILL : path.endsWith('payout') ? { payoutReference: 'r' } : { reason: 'r' };
        const r = await h.op('POST', path, body);
        assert.deepEqual([r.status, r.body.code], [409, 'market.venue_simulated'], path);
      }
    });
  });
}
