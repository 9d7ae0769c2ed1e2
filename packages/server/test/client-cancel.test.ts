import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  available,
  backends,
  btcUsdMarket,
  held,
  makeHarness,
  seedOrg,
  signedInMember,
  usableDestination,
  withCookie,
  type Harness,
  type SeededOrg,
} from './harness.ts';

/** One record by id, and the client's own cancel of a request still pending_approval. */
for (const backend of backends()) {
  describe(`records by id and client cancel [${backend}]`, () => {
    let h: Harness;
    let a: SeededOrg;
    let b: SeededOrg;
    before(async () => {
      h = await makeHarness({ backend, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
      await btcUsdMarket(h);
      a = await seedOrg(h, { name: 'A', balances: { BTC: 100_000_000n, USD: 1_000_000n } });
      b = await seedOrg(h, { name: 'B', balances: { BTC: 100_000_000n } });
    });
    after(async () => h?.close());

    const placeOrder = async (o: SeededOrg) => {
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
      assert.equal(q.status, 201, q.raw);
      const r = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
      assert.equal(r.status, 201, r.raw);
      return { quoteId: q.body.data.id as string, orderId: r.body.data.id as string };
    };

    test("GET by id: orders, withdrawals, deposits, quotes; another organization's id is 404", async () => {
      const { quoteId, orderId } = await placeOrder(a);
      const order = await h.call(a.key, 'GET', `/orders/${orderId}`);
      assert.equal(order.status, 200);
      assert.deepEqual(
        [order.body.data.id, order.body.data.state, order.body.data.base.amountMinor],
        [orderId, 'pending_approval', '1000000'],
      );
      const quote = await h.call(a.key, 'GET', `/quotes/${quoteId}`);
      assert.deepEqual([quote.status, quote.body.data.id, quote.body.data.amountBaseMinor], [200, quoteId, '1000000']);
      const dest = await usableDestination(h, a.key);
      const w = await h.call(a.key, 'POST', '/withdrawals', {
        destinationId: dest,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '500',
      });
      assert.equal(w.status, 201, w.raw);
      const wd = await h.call(a.key, 'GET', `/withdrawals/${w.body.data.id}`);
      assert.deepEqual([wd.status, wd.body.data.state, wd.body.data.money.amountMinor], [200, 'pending_approval', '500']);
      assert.equal((await h.op('PUT', '/wallets/USD', { network: 'ach', address: 'byid-usd' })).status, 200);
      const arrival = await h.op('POST', '/deposits', { assetSymbol: 'USD', network: 'ach', amountMinor: '777', txid: `byid-${backend}` });
      assert.equal((await h.op('POST', `/deposits/${arrival.body.data.id}/attribute`, { organizationId: a.orgId })).status, 200);
      const dep = await h.call(a.key, 'GET', `/deposits/${arrival.body.data.id}`);
      assert.deepEqual([dep.status, dep.body.data.state, dep.body.data.money.amountMinor], [200, 'credited', '777']);

      for (const [path, code] of [
        [`/orders/${orderId}`, 'orders.not_found'],
        [`/quotes/${quoteId}`, 'orders.quote_not_found'],
        [`/withdrawals/${w.body.data.id}`, 'withdrawals.not_found'],
        [`/deposits/${arrival.body.data.id}`, 'deposits.not_found'],
        ['/orders/ord_nothing', 'orders.not_found'],
      ] as const) {
        const r = await h.call(b.key, 'GET', path);
        assert.equal(r.status, 404, path);
        assert.equal(r.body.code, code, path);
      }
    });

    test('cancel of a pending order releases the hold at once; a second cancel or a decision after it is 409', async () => {
      const before = await available(h, a.key, 'BTC');
      const heldBefore = await held(h, a.key, 'BTC');
      const { orderId } = await placeOrder(a);
      assert.equal(await available(h, a.key, 'BTC'), before - 1_000_000n);
      const r = await h.call(a.key, 'POST', `/orders/${orderId}/cancel`);
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.state, 'cancelled');
      assert.equal(await available(h, a.key, 'BTC'), before);
      assert.equal(await held(h, a.key, 'BTC'), heldBefore);
      const again = await h.call(a.key, 'POST', `/orders/${orderId}/cancel`);
      assert.deepEqual([again.status, again.body.code], [409, 'orders.already_decided']);
      assert.equal((await h.op('POST', `/orders/${orderId}/approve`)).status, 409);
      assert.equal((await h.call(b.key, 'POST', `/orders/${orderId}/cancel`)).status, 404, "not another organization's to cancel");
      const { orderId: done } = await placeOrder(a);
      assert.equal((await h.op('POST', `/orders/${done}/approve`)).status, 200);
      assert.deepEqual((await h.call(a.key, 'POST', `/orders/${done}/cancel`)).body.code, 'orders.already_decided');
      const list = await h.call(a.key, 'GET', '/orders?state=cancelled');
      assert.deepEqual(
        list.body.data.map((o: { id: string }) => o.id),
        [orderId],
      );
    });

    test('the audit trail names who cancelled: the key, or the member signed in to the portal', async () => {
      const { orderId: byKey } = await placeOrder(a);
      assert.equal((await h.call(a.key, 'POST', `/orders/${byKey}/cancel`)).status, 200);
      const { orderId: bySession } = await placeOrder(a);
      const person = await signedInMember(h, a.orgId);
      const c = await withCookie(h, person.cookie, 'POST', `/api/v1/orders/${bySession}/cancel`);
      assert.deepEqual([c.status, c.body.data?.state], [200, 'cancelled'], c.raw);
      const dest = await usableDestination(h, a.key, { accountNumber: '12121212' });
      const w = await h.call(a.key, 'POST', '/withdrawals', {
        destinationId: dest,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '300',
      });
      assert.equal((await withCookie(h, person.cookie, 'POST', `/api/v1/withdrawals/${w.body.data.id}/cancel`)).status, 200);
      const actor = async (id: string, action: string) =>
        ((await h.op('GET', `/audit?subjectId=${id}&action=${action}`)).body.data as Array<{ actor: string }>).map((x) => x.actor);
      assert.deepEqual(await actor(byKey, 'order.cancel'), [`key:${a.keyId}`]);
      assert.deepEqual(await actor(bySession, 'order.cancel'), [`member:${person.memberId}`]);
      assert.deepEqual(await actor(w.body.data.id, 'withdrawal.cancel'), [`member:${person.memberId}`]);
    });

    test("cancel of a pending withdrawal releases the hold; another organization's is 404; a decided one 409", async () => {
      const dest = await usableDestination(h, a.key, { accountNumber: backend === 'pglite' ? '11112222' : '11113333' });
      const before = await available(h, a.key, 'USD');
      const w = await h.call(a.key, 'POST', '/withdrawals', {
        destinationId: dest,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '2500',
      });
      assert.equal(await available(h, a.key, 'USD'), before - 2500n);
      assert.equal((await h.call(b.key, 'POST', `/withdrawals/${w.body.data.id}/cancel`)).status, 404);
      const r = await h.call(a.key, 'POST', `/withdrawals/${w.body.data.id}/cancel`);
      assert.deepEqual([r.status, r.body.data.state], [200, 'cancelled']);
      assert.equal(await available(h, a.key, 'USD'), before);
      assert.deepEqual((await h.op('POST', `/withdrawals/${w.body.data.id}/approve`)).body.code, 'withdrawals.already_decided');
    });

    test('a cancel racing an approval settles exactly one of them (orders and withdrawals), and the books add up', async () => {
      const dest = await usableDestination(h, a.key, { accountNumber: backend === 'pglite' ? '44445555' : '44446666' });
      const btcHeld = await held(h, a.key, 'BTC');
      const usdHeld = await held(h, a.key, 'USD');
      for (let i = 0; i < 6; i++) {
        const btcBefore = await available(h, a.key, 'BTC');
        const { orderId } = await placeOrder(a);
        const [c, ap] = await Promise.all([h.call(a.key, 'POST', `/orders/${orderId}/cancel`), h.op('POST', `/orders/${orderId}/approve`)]);
        assert.deepEqual([c.status, ap.status].sort(), [200, 409], `order ${i}: ${c.raw} ${ap.raw}`);
        const state = (await h.call(a.key, 'GET', `/orders/${orderId}`)).body.data.state;
        assert.equal(state, c.status === 200 ? 'cancelled' : 'completed');
        assert.equal(await available(h, a.key, 'BTC'), c.status === 200 ? btcBefore : btcBefore - 1_000_000n);
        assert.equal(await held(h, a.key, 'BTC'), btcHeld);

        const usdBefore = await available(h, a.key, 'USD');
        const w = await h.call(a.key, 'POST', '/withdrawals', {
          destinationId: dest,
          assetSymbol: 'USD',
          assetDecimals: 2,
          amountMinor: '100',
        });
        assert.equal(w.status, 201, w.raw);
        const [wc, wa] = await Promise.all([
          h.call(a.key, 'POST', `/withdrawals/${w.body.data.id}/cancel`),
          h.op('POST', `/withdrawals/${w.body.data.id}/approve`),
        ]);
        assert.deepEqual([wc.status, wa.status].sort(), [200, 409], `withdrawal ${i}: ${wc.raw} ${wa.raw}`);
        assert.equal(await available(h, a.key, 'USD'), wc.status === 200 ? usdBefore : usdBefore - 100n);
        assert.equal(await held(h, a.key, 'USD'), usdHeld);
      }
    });
  });
}
