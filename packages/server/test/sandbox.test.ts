import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { runSandboxDecider } from '../src/sandbox-task.ts';
import { sweepMagic } from '../src/usecases/sandbox/decide-magic.ts';
import {
  available,
  backends,
  BTC_USD,
  eventsSettled,
  held,
  listAssets,
  makeHarness,
  SECRET,
  seedOrg,
  usableDestination,
  type Harness,
  type SeededOrg,
} from './harness.ts';
import { startReceiver } from './webhook-receiver.ts';

/** Waits until `f` answers something other than undefined (the sandbox decides on its own time). */
async function until<T>(f: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`waited 15 s for ${what}`);
}

for (const backend of backends()) {
  describe(`sandbox decides by itself [${backend}]`, () => {
    let h: Harness;
    let stop: AbortController | null = null;
    let running: Promise<void> | null = null;
    /** The sandbox's decider, as the background task runs it; started late in the first tests (a restart). */
    const startDecider = () => {
      if (stop) return;
      stop = new AbortController();
      running = runSandboxDecider(h.deps, stop.signal);
    };
    before(async () => {
      h = await makeHarness({ backend, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
      await listAssets(h, { USD: 2, BTC: 8 });
      assert.equal((await h.op('PUT', '/market/pairs/BTC/USD', BTC_USD)).status, 200);
      assert.equal((await h.op('PUT', '/wallets/BTC', { network: 'bitcoin', address: 'bc1q-sandbox' })).status, 200);
    });
    after(async () => {
      stop?.abort();
      await running;
      await h?.close();
    });

    async function placeOrder(o: SeededOrg, amountBaseMinor: bigint): Promise<{ id: string; quote: bigint }> {
      const q = await h.call(o.key, 'POST', '/quotes', {
        baseSymbol: 'BTC',
        quoteSymbol: 'USD',
        amountBaseMinor: amountBaseMinor.toString(),
      });
      assert.equal(q.status, 201, q.raw);
      const r = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
      assert.equal(r.status, 201, r.raw);
      assert.equal(r.body.data.state, 'pending_approval');
      return { id: r.body.data.id, quote: BigInt(r.body.data.quote.amountMinor) };
    }
    const orderOf = async (o: SeededOrg, id: string) => (await h.call(o.key, 'GET', `/orders/${id}`)).body.data;
    /** The request once it reached a final state (an order is approved, then settled in a second transaction). */
    const decided = (o: SeededOrg, path: string) =>
      until(async () => {
        const r = (await h.call(o.key, 'GET', path)).body.data;
        return r.state !== 'pending_approval' && r.state !== 'approved' ? r : undefined;
      }, `${path} to be decided`);
    async function eventTypes(o: SeededOrg, subjectId: string): Promise<string[]> {
      await eventsSettled(h, o.orgId);
      const r = await h.call(o.key, 'GET', '/events?limit=100');
      return (r.body.data as Array<{ type: string; data: { id: string } }>).filter((e) => e.data.id === subjectId).map((e) => e.type);
    }
    const auditActors = async (id: string) =>
      ((await h.op('GET', `/audit?subjectId=${id}`)).body.data as Array<{ actor: string; action: string }>)
        .map((a) => `${a.actor} ${a.action}`)
        .sort();

    test('requests created while no decider runs are decided once it starts (a restart), each as a person would', async () => {
      const o = await seedOrg(h, { balances: { BTC: 10_000_000n, USD: 100_000n } });
      const dst = await usableDestination(h, o.key);
      const complete = await placeOrder(o, 1_001_111n);
      const reject = await placeOrder(o, 1_002_222n);
      const fail = await placeOrder(o, 1_003_333n);
      const waits = await placeOrder(o, 1_000_000n);
      const withdraw = async (amountMinor: string) => {
        const r = await h.call(o.key, 'POST', '/withdrawals', { destinationId: dst, assetSymbol: 'USD', assetDecimals: 2, amountMinor });
        assert.equal(r.status, 201, r.raw);
        return r.body.data.id as string;
      };
      const wComplete = await withdraw('11111');
      const wReject = await withdraw('12222');
      const wFail = await withdraw('13333');
      const wWaits = await withdraw('10000');
      assert.equal(await available(h, o.key, 'BTC'), 10_000_000n - 4_006_666n);
      assert.equal(await held(h, o.key, 'USD'), 46_666n);

      startDecider();
      assert.equal((await decided(o, `/orders/${complete.id}`)).state, 'completed');
      const rj = await decided(o, `/orders/${reject.id}`);
      assert.deepEqual([rj.state, rj.reason], ['rejected', 'sandbox: rejected']);
      const fl = await decided(o, `/orders/${fail.id}`);
      assert.deepEqual([fl.state, fl.reason], ['failed', 'sandbox: failed']);
      assert.equal((await decided(o, `/withdrawals/${wComplete}`)).state, 'completed');
      const wr = await decided(o, `/withdrawals/${wReject}`);
      assert.deepEqual([wr.state, wr.reason], ['rejected', 'sandbox: rejected']);
      const wf = await decided(o, `/withdrawals/${wFail}`);
      assert.deepEqual([wf.state, wf.reason], ['failed', 'sandbox: failed']);

      // Everything else waits for a person, as in production, however many sweeps run.
      await sweepMagic(h.deps);
      assert.equal((await orderOf(o, waits.id)).state, 'pending_approval');
      assert.equal((await h.call(o.key, 'GET', `/withdrawals/${wWaits}`)).body.data.state, 'pending_approval');

      // Balances: only the completed order's base left and its quote arrived; only the completed withdrawal's amount left.
      assert.equal(await available(h, o.key, 'BTC'), 10_000_000n - 1_001_111n - 1_000_000n);
      assert.equal(await held(h, o.key, 'BTC'), 1_000_000n);
      assert.equal(await available(h, o.key, 'USD'), 100_000n + complete.quote - 11_111n - 10_000n);
      assert.equal(await held(h, o.key, 'USD'), 10_000n);

      // The same events as a person's decisions, and the audit names the sandbox.
      assert.deepEqual(await eventTypes(o, complete.id), ['order.created', 'order.approved', 'order.completed']);
      assert.deepEqual(await eventTypes(o, reject.id), ['order.created', 'order.rejected']);
      assert.deepEqual(await eventTypes(o, fail.id), ['order.created', 'order.approved', 'order.failed']);
      assert.deepEqual(await eventTypes(o, wComplete), ['withdrawal.created', 'withdrawal.approved', 'withdrawal.completed']);
      assert.deepEqual(await eventTypes(o, wReject), ['withdrawal.created', 'withdrawal.rejected']);
      assert.deepEqual(await eventTypes(o, wFail), ['withdrawal.created', 'withdrawal.approved', 'withdrawal.failed']);
      assert.deepEqual(await auditActors(complete.id), ['sandbox order.approve', 'sandbox order.complete']);
      assert.deepEqual(await auditActors(reject.id), ['sandbox order.reject']);
      assert.deepEqual(await auditActors(fail.id), ['sandbox order.approve', 'sandbox order.fail']);
      assert.deepEqual(await auditActors(wFail), ['sandbox withdrawal.approve', 'sandbox withdrawal.fail']);
    });

    test('a declaration of a magic amount is matched by a simulated arrival of its exact expected amount', async () => {
      startDecider();
      const o = await seedOrg(h);
      const r = await h.call(o.key, 'POST', '/deposits/declarations', {
        assetSymbol: 'BTC',
        assetDecimals: 8,
        declaredAmountMinor: '50001111',
      });
      assert.equal(r.status, 201, r.raw);
      const expected = BigInt(r.body.data.expectedAmountMinor);
      await until(
        async () => ((await h.call(o.key, 'GET', '/deposits/open-declaration')).body.data === null ? true : undefined),
        'the match',
      );
      assert.equal(await available(h, o.key, 'BTC'), expected);
      const deposits = (await h.call(o.key, 'GET', '/deposits')).body.data;
      assert.equal(deposits.length, 1);
      assert.deepEqual([deposits[0].state, deposits[0].money.amountMinor], ['credited', expected.toString()]);
      await eventsSettled(h, o.orgId);
      const types = ((await h.call(o.key, 'GET', '/events')).body.data as Array<{ type: string }>).map((e) => e.type);
      assert.deepEqual(types, ['declaration.created', 'declaration.matched', 'deposit.credited']);
    });

    test('a person deciding while the sandbox decides: each order and withdrawal is decided once', async () => {
      startDecider();
      const o = await seedOrg(h, { balances: { BTC: 20_000_000n } });
      for (let i = 0; i < 4; i++) {
        const { id } = await placeOrder(o, 1_002_222n);
        const [person] = await Promise.all([h.op('POST', `/orders/${id}/approve`), sweepMagic(h.deps)]);
        const final = await decided(o, `/orders/${id}`);
        if (person.status === 200) assert.equal(final.state, 'completed');
        else assert.deepEqual([person.status, final.state, final.reason], [409, 'rejected', 'sandbox: rejected']);
        const types = await eventTypes(o, id);
        assert.equal(types.filter((t) => t === 'order.rejected' || t === 'order.completed').length, 1, types.join());
      }
      assert.equal(await held(h, o.key, 'BTC'), 0n);

      // A withdrawal: the person rejects while the sandbox pays it out (…1111).
      const w = await seedOrg(h, { balances: { USD: 100_000n } });
      const dst = await usableDestination(h, w.key);
      for (let i = 0; i < 2; i++) {
        const r = await h.call(w.key, 'POST', '/withdrawals', {
          destinationId: dst,
          assetSymbol: 'USD',
          assetDecimals: 2,
          amountMinor: '11111',
        });
        assert.equal(r.status, 201, r.raw);
        const id = r.body.data.id as string;
        const [person] = await Promise.all([h.op('POST', `/withdrawals/${id}/reject`, { reason: 'no' }), sweepMagic(h.deps)]);
        const final = await decided(w, `/withdrawals/${id}`);
        assert.equal(final.state, person.status === 200 ? 'rejected' : 'completed');
        const types = await eventTypes(w, id);
        assert.equal(types.filter((t) => t === 'withdrawal.rejected' || t === 'withdrawal.completed').length, 1, types.join());
      }
      assert.equal(await held(h, w.key, 'USD'), 0n);
    });

    test('POST /sandbox/deposits: credits a declaration of that exact amount, else waits unattributed; 422s, 409 and keys as elsewhere', async () => {
      const o = await seedOrg(h);
      const d = await h.call(o.key, 'POST', '/deposits/declarations', {
        assetSymbol: 'BTC',
        assetDecimals: 8,
        declaredAmountMinor: '30000000',
      });
      const expected = d.body.data.expectedAmountMinor as string;
      const credited = await h.call(o.key, 'POST', '/sandbox/deposits', { assetSymbol: 'BTC', amountMinor: expected, txid: 'tx-sbx-1' });
      assert.equal(credited.status, 201, credited.raw);
      assert.deepEqual([credited.body.data.state, credited.body.data.money.amountMinor], ['credited', expected]);
      assert.equal(await available(h, o.key, 'BTC'), BigInt(expected));

      const stray = await h.call(
        o.key,
        'POST',
        '/sandbox/deposits',
        { assetSymbol: 'BTC', amountMinor: '12345' },
        { 'idempotency-key': 'sbx-1' },
      );
      assert.equal(stray.status, 201, stray.raw);
      assert.equal(stray.body.data.state, 'unattributed');
      const replay = await h.call(
        o.key,
        'POST',
        '/sandbox/deposits',
        { assetSymbol: 'BTC', amountMinor: '12345' },
        { 'idempotency-key': 'sbx-1' },
      );
      assert.deepEqual([replay.status, replay.headers['idempotent-replayed'], replay.body.data.id], [201, 'true', stray.body.data.id]);
      assert.equal(await available(h, o.key, 'BTC'), BigInt(expected));

      const again = await h.call(o.key, 'POST', '/sandbox/deposits', { assetSymbol: 'BTC', amountMinor: '5', txid: 'tx-sbx-1' });
      assert.deepEqual([again.status, again.body.code], [409, 'deposits.txid_already_recorded']);
      for (const [body, code] of [
        [{ assetSymbol: 'BTC', amountMinor: '1.5' }, 'request.validation_failed'],
        [{ assetSymbol: 'BTC', amountMinor: '0' }, 'request.invalid_amount'],
        [{ assetSymbol: 'USD', amountMinor: '100' }, 'deposits.asset_not_receivable'],
        [{ amountMinor: '100' }, 'request.validation_failed'],
      ] as const) {
        const r = await h.call(o.key, 'POST', '/sandbox/deposits', body);
        assert.equal(r.status, 422, r.raw);
        if (code !== 'request.validation_failed') assert.equal(r.body.code, code);
      }
      const readOnly = await seedOrg(h, { scopes: ['portal:read'] });
      const refused = await h.call(readOnly.key, 'POST', '/sandbox/deposits', { assetSymbol: 'BTC', amountMinor: '100' });
      assert.equal(refused.status, 403);
    });

    test('POST /webhooks/:id/test sends a signed webhook.test now and answers how the endpoint answered', async () => {
      const rx = await startReceiver((_r, nth) => (nth === 1 ? 200 : 503));
      try {
        const o = await seedOrg(h, { scopes: ['portal:webhooks'] });
        const w = await h.call(o.key, 'POST', '/webhooks', { url: rx.url });
        assert.equal(w.status, 201, w.raw);
        const r = await h.call(o.key, 'POST', `/webhooks/${w.body.data.id}/test`);
        assert.equal(r.status, 200, r.raw);
        const t = r.body.data;
        assert.deepEqual([t.type, t.state, t.statusCode, t.responseExcerpt, t.error], ['webhook.test', 'delivered', 200, 'ok', null]);
        assert.ok(Number.isInteger(t.latencyMs) && t.latencyMs >= 0);
        assert.equal(rx.received.length, 1);
        const got = new Webhook(w.body.data.secret).verify(rx.received[0]!.body, rx.received[0]!.headers as Record<string, string>) as {
          id: string;
          type: string;
        };
        assert.deepEqual([got.id, got.type], [t.eventId, 'webhook.test']);

        const second = (await h.call(o.key, 'POST', `/webhooks/${w.body.data.id}/test`)).body.data;
        assert.deepEqual([second.state, second.statusCode, second.error], ['failed', 503, 'answered 503']);
        assert.equal((await h.call(o.key, 'POST', '/webhooks/wh_none/test')).status, 404);
        // Nothing was queued: the test event is not one of the organization's events.
        assert.deepEqual((await h.call(o.key, 'GET', `/webhooks/${w.body.data.id}/deliveries`)).body.data, []);
      } finally {
        await rx.close();
      }
    });
  });

  describe(`sandbox in production [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend, env: { CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET, CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
      await listAssets(h, { USD: 2, BTC: 8 });
      assert.equal((await h.op('PUT', '/wallets/BTC', { network: 'bitcoin', address: 'bc1q-prod' })).status, 200);
    });
    after(async () => h?.close());

    test('the sandbox endpoints are 404 and magic amounts are inert', async () => {
      const o = await seedOrg(h, {
        scopes: ['portal:read', 'portal:deposit', 'portal:destinations', 'portal:withdraw', 'portal:webhooks'],
        balances: { USD: 100_000n },
      });
      const dep = await h.call(o.key, 'POST', '/sandbox/deposits', { assetSymbol: 'BTC', amountMinor: '100' });
      assert.equal(dep.status, 404, dep.raw);
      const test404 = await h.call(o.key, 'POST', '/webhooks/wh_any/test');
      assert.equal(test404.status, 404);
      assert.equal(test404.body.code, dep.body.code);

      const dst = await usableDestination(h, o.key);
      const w = await h.call(o.key, 'POST', '/withdrawals', {
        destinationId: dst,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '11111',
      });
      assert.equal(w.status, 201, w.raw);
      // The decider returns at once in production, and a sweep decides nothing.
      await runSandboxDecider(h.deps, new AbortController().signal);
      assert.equal(await sweepMagic(h.deps), 0);
      assert.equal((await h.call(o.key, 'GET', `/withdrawals/${w.body.data.id}`)).body.data.state, 'pending_approval');
      assert.equal(await held(h, o.key, 'USD'), 11_111n);
    });
  });
}
