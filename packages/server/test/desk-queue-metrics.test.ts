import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ManualClock } from '../src/domain/ports.ts';
import {
  backends,
  listAssets,
  makeHarness,
  OPERATOR_TOKEN,
  SECRET,
  seedOrg,
  signedInStaff,
  usableDestination,
  withCookie,
  type Harness,
} from './harness.ts';

const FILL = { venue: 'Kraken OTC', venueReference: 'kr-1', proceedsQuoteMinor: '59940' };
const NONE = { count: 0, oldestSince: null, oldestAgeSeconds: null };

/** The lines of the metrics text that start with one of these names (samples only, no HELP/TYPE). */
async function samples(h: Harness, ...names: string[]): Promise<string[]> {
  const r = await h.app.inject({ method: 'GET', url: '/operator/v1/metrics', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
  assert.equal(r.statusCode, 200);
  return r.body.split('\n').filter((l) => names.some((n) => l.startsWith(`${n}{`) || l.startsWith(`${n} `)));
}

/** The desk's queues and the business metrics after a production journey. */
for (const backend of backends()) {
  describe(`the desk's queue summary and business metrics [${backend}]`, () => {
    let h: Harness;
    let clock: ManualClock;
    before(async () => {
      h = await makeHarness({
        backend,
        manualClock: true,
        env: { CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET, CAMBIO_DESTINATION_COOLDOWN_MS: '0' },
      });
      clock = h.clock as ManualClock;
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
    });
    after(async () => h?.close());

    test('counts and oldest waits follow the requests; the metrics count every transition once, exactly', async () => {
      const empty = await h.op('GET', '/queue/summary');
      assert.equal(empty.status, 200, empty.raw);
      const { asOf: _asOf, ...queues } = empty.body.data;
      assert.deepEqual(queues, {
        ordersPendingApproval: NONE,
        ordersAwaitingFill: NONE,
        withdrawalsPendingApproval: NONE,
        withdrawalsAwaitingPayout: NONE,
        depositsUnattributed: NONE,
      });

      const o = await seedOrg(h, { balances: { BTC: 5_000_000n, USD: 100_000n } });
      const dst = await usableDestination(h, o.key);
      const order = async () => {
        const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
        const r = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
        assert.equal(r.status, 201, r.raw);
        return r.body.data.id as string;
      };
      const t0 = clock.now();
      const first = await order();
      clock.advance(60_000);
      const second = await order();
      const w = await h.call(o.key, 'POST', '/withdrawals', {
        destinationId: dst,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '25000',
      });
      assert.equal(w.status, 201, w.raw);
      // A refused request is no transition: a quote accepted twice.
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
      assert.equal((await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id })).status, 201);
      assert.equal((await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id })).status, 410);

      const pending = (await h.op('GET', '/queue/summary')).body.data;
      assert.equal(pending.asOf, clock.now().toISOString());
      assert.deepEqual(pending.ordersPendingApproval, { count: 3, oldestSince: t0.toISOString(), oldestAgeSeconds: 60 });
      assert.deepEqual(pending.withdrawalsPendingApproval, { count: 1, oldestSince: clock.now().toISOString(), oldestAgeSeconds: 0 });
      assert.deepEqual([pending.ordersAwaitingFill, pending.withdrawalsAwaitingPayout], [NONE, NONE]);

      clock.advance(30_000);
      const approvedAt = clock.now().toISOString();
      assert.equal((await h.op('POST', `/orders/${first}/approve`)).status, 200);
      assert.equal((await h.op('POST', `/orders/${second}/reject`, { reason: 'no' })).status, 200);
      assert.equal(
        (await h.call(o.key, 'POST', `/orders/${(await h.call(o.key, 'GET', '/orders?state=pending_approval')).body.data[0].id}/cancel`))
          .status,
        200,
      );
      assert.equal((await h.op('POST', `/withdrawals/${w.body.data.id}/approve`)).status, 200);
      clock.advance(15_000);
      // A viewer reads it as the admin does.
      const viewer = await signedInStaff(h, 'viewer');
      const waiting = await withCookie(h, viewer.cookie, 'GET', '/operator/v1/queue/summary');
      assert.equal(waiting.status, 200, waiting.raw);
      assert.deepEqual(waiting.body.data.ordersAwaitingFill, { count: 1, oldestSince: approvedAt, oldestAgeSeconds: 15 });
      assert.deepEqual(waiting.body.data.withdrawalsAwaitingPayout, { count: 1, oldestSince: approvedAt, oldestAgeSeconds: 15 });
      assert.deepEqual([waiting.body.data.ordersPendingApproval, waiting.body.data.withdrawalsPendingApproval], [NONE, NONE]);
      assert.equal((await h.app.inject({ method: 'GET', url: '/operator/v1/queue/summary' })).statusCode, 401);
      assert.deepEqual(await samples(h, 'cambio_queue_requests', 'cambio_queue_oldest_age_seconds'), [
        'cambio_queue_requests{queue="ordersPendingApproval"} 0',
        'cambio_queue_requests{queue="ordersAwaitingFill"} 1',
        'cambio_queue_requests{queue="withdrawalsPendingApproval"} 0',
        'cambio_queue_requests{queue="withdrawalsAwaitingPayout"} 1',
        'cambio_queue_requests{queue="depositsUnattributed"} 0',
        'cambio_queue_oldest_age_seconds{queue="ordersPendingApproval"} 0',
        'cambio_queue_oldest_age_seconds{queue="ordersAwaitingFill"} 15',
        'cambio_queue_oldest_age_seconds{queue="withdrawalsPendingApproval"} 0',
        'cambio_queue_oldest_age_seconds{queue="withdrawalsAwaitingPayout"} 15',
        'cambio_queue_oldest_age_seconds{queue="depositsUnattributed"} 0',
      ]);

      // Four fills at once and two payouts at once: one of each is recorded, and counted.
      const fills = await Promise.all([1, 2, 3, 4].map(() => h.op('POST', `/orders/${first}/fill`, FILL)));
      assert.deepEqual(fills.map((r) => r.status).sort(), [200, 409, 409, 409]);
      const payouts = await Promise.all(
        [1, 2].map((i) => h.op('POST', `/withdrawals/${w.body.data.id}/payout`, { payoutReference: `wire-${i}` })),
      );
      assert.deepEqual(payouts.map((r) => r.status).sort(), [200, 409]);
      const { asOf: _at, ...after } = (await h.op('GET', '/queue/summary')).body.data;
      assert.deepEqual(Object.values(after), Array(5).fill(NONE));

      // The desk holds 0.001 BTC less and 599.40 − 250.00 USD more; it reports 7 units of USD too many.
      const run = await h.op('POST', '/reconciliation/run', {
        marketBalances: [
          { assetSymbol: 'BTC', amountMinor: '4000000' },
          { assetSymbol: 'USD', amountMinor: '134947' },
        ],
      });
      assert.equal(run.body.data.matched, false, run.raw);

      assert.deepEqual(
        await samples(
          h,
          'cambio_order_transitions_total',
          'cambio_withdrawal_transitions_total',
          'cambio_desk_records_total',
          'cambio_reconciled',
          'cambio_reconciliation_difference_minor',
        ),
        [
          'cambio_order_transitions_total{to="pending_approval"} 3',
          'cambio_order_transitions_total{to="approved"} 1',
          'cambio_order_transitions_total{to="rejected"} 1',
          'cambio_order_transitions_total{to="cancelled"} 1',
          'cambio_order_transitions_total{to="completed"} 1',
          'cambio_withdrawal_transitions_total{to="pending_approval"} 1',
          'cambio_withdrawal_transitions_total{to="approved"} 1',
          'cambio_withdrawal_transitions_total{to="completed"} 1',
          'cambio_desk_records_total{what="fill"} 1',
          'cambio_desk_records_total{what="payout"} 1',
          'cambio_reconciled 0',
          'cambio_reconciliation_difference_minor{asset="BTC"} 0',
          'cambio_reconciliation_difference_minor{asset="USD"} 7',
        ],
      );
    });
  });
}
