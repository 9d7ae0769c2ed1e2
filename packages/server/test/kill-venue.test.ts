import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { callJson, childService, until, type ChildService } from './child-service.ts';
import { backends, OPERATOR_TOKEN } from './harness.ts';
import { startBinanceDouble, type BinanceDouble } from './venue-double/binance-double.ts';
import { BOOK, SELL_PAIR, venueEnv } from './venue-double/venue-harness.ts';

// Selling 1 BTC into BOOK: the quote owes the client 6467002 USDT minor units (venue-orders.test.ts).
const ONE_BTC = 100_000_000n;
const OWED = 6_467_002n;
const FUNDED_BTC = 10n * ONE_BTC;

/**
 * The service at the Binance double as `npm start` runs it (child processes, SIGKILL for a crash), with
 * outcomes looked up 2 s after approval: the production venue's answer lost to a crash, and two
 * instances looking up one order.
 */
async function venueService(backend: 'pglite' | 'postgres', double: BinanceDouble, instances = 1) {
  const s = await childService(
    backend,
    {
      ...venueEnv(double.origin),
      CAMBIO_SEED_DEMO: 'false',
      OPERATOR_TOKEN,
      CAMBIO_RECOVERY_GRACE_MS: '2000',
    },
    { instances },
  );
  const op = async (method: string, path: string, body?: unknown) => {
    const r = await callJson(s, method, `/operator/v1${path}`, body, 'operator');
    assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.raw}`);
    return r.data;
  };
  try {
    for (const [symbol, decimals] of [
      ['BTC', 8],
      ['USDT', 2],
    ] as const)
      await op('PUT', `/market/assets/${symbol}`, { decimals });
    await op('PUT', '/market/pairs/BTC/USDT', SELL_PAIR);
    const org = await op('POST', '/organizations', { name: 'Kill venue', status: 'active', limits: {} });
    const mem = await op('POST', `/organizations/${org.id}/members`, {
      name: 'Trader',
      email: 'trader@kill.test',
      permissions: ['portal:read', 'portal:trade', 'portal:api_keys'],
    });
    const key = await op('POST', `/members/${mem.id}/api-keys`, { scopes: ['portal:read', 'portal:trade'] });
    await op('POST', `/organizations/${org.id}/adjustments`, { assetSymbol: 'BTC', amountMinor: FUNDED_BTC.toString(), reason: 'funding' });
    const client: ChildService = { ...s, apiKey: key.key };
    return { s, client };
  } catch (e) {
    await s.cleanup();
    throw e;
  }
}

/** A quote for 1 BTC and its order: the order's id. */
async function orderOneBtc(client: ChildService): Promise<string> {
  const q = await callJson(client, 'POST', '/api/v1/quotes', {
    baseSymbol: 'BTC',
    quoteSymbol: 'USDT',
    amountBaseMinor: ONE_BTC.toString(),
  });
  assert.equal(q.status, 201, q.raw);
  assert.equal(q.data.amountQuoteMinor, OWED.toString());
  const o = await callJson(client, 'POST', '/api/v1/orders', { quoteId: q.data.id });
  assert.equal(o.status, 201, o.raw);
  return o.data.id;
}

const approve = (s: ChildService, id: string) => callJson(s, 'POST', `/operator/v1/orders/${id}/approve`, {}, 'operator');

async function completed(client: ChildService, id: string) {
  return until(
    async () => {
      const r = await callJson(client, 'GET', `/api/v1/orders/${id}`);
      return r.status === 200 && r.data.state === 'completed' ? r.data : undefined;
    },
    200,
    60_000,
  );
}

async function balances(client: ChildService) {
  const r = await callJson(client, 'GET', '/api/v1/balances');
  assert.equal(r.status, 200, r.raw);
  const of = (a: string) =>
    (r.data as Array<{ assetSymbol: string; amountMinor: string; heldMinor: string }>).find((b) => b.assetSymbol === a);
  return {
    btc: BigInt(of('BTC')?.amountMinor ?? '0'),
    btcHeld: BigInt(of('BTC')?.heldMinor ?? '0'),
    usdt: BigInt(of('USDT')?.amountMinor ?? '0'),
  };
}

for (const backend of backends()) {
  describe(`a venue order survives a SIGKILL between sending it and recording its outcome (${backend})`, () => {
    let double: BinanceDouble;
    before(async () => {
      double = await startBinanceDouble();
      double.setBook('BTCUSDT', BOOK);
      double.setBalance('BTC', '100');
    });
    after(async () => {
      await double.close();
    });

    test(
      "killed while the venue's answer is on its way: after the restart the order completes once, one venue order, exact balances",
      { timeout: 300_000 },
      async () => {
        const { s, client } = await venueService(backend, double);
        try {
          const id = await orderOneBtc(client);
          const recorded = double.holdNextOrder();
          const approving = approve(s, id).catch(() => null); // the service dies under this call
          const sent = await recorded;
          assert.equal(sent.clientOrderId, id);
          await s.kill();
          assert.equal(await approving, null, 'the approval was never answered');

          // The crash left the order approved and its venue row `sending`: written before the order left.
          const store = await s.openStore();
          try {
            const row = (
              await sql<{ state: string; attempts: number }>`select state, attempts from venue_orders where order_id = ${id}`.execute(
                store.db,
              )
            ).rows[0];
            assert.deepEqual({ ...row }, { state: 'sending', attempts: 1 });
            const ord = (await sql<{ state: string }>`select state from orders where id = ${id}`.execute(store.db)).rows[0];
            assert.equal(ord?.state, 'approved');
          } finally {
            await store.close();
          }

          await s.start();
          const done = await completed(client, id);
          assert.equal(done.state, 'completed');
          assert.equal(double.ordersPerClientId().get(id), 1, "exactly one venue order with the order's id as client id");
          assert.deepEqual(await balances(client), { btc: FUNDED_BTC - ONE_BTC, btcHeld: 0n, usdt: OWED });
          // The desk sees one execution: filled, the venue's order id, sent once.
          const seen = await callJson(s, 'GET', '/operator/v1/venue/executions', undefined, 'operator');
          const x = (seen.data as Array<{ orderId: string; state: string; venueOrderId: string; attempts: number }>).filter(
            (r) => r.orderId === id,
          );
          assert.deepEqual(
            x.map((r) => ({ state: r.state, venueOrderId: r.venueOrderId, attempts: r.attempts })),
            [{ state: 'filled', venueOrderId: String(sent.orderId), attempts: 1 }],
          );
          // Later passes of the lookup task find it settled and send nothing.
          await new Promise((r) => setTimeout(r, 3_000));
          assert.equal(double.ordersPerClientId().get(id), 1);
          assert.deepEqual(await balances(client), { btc: FUNDED_BTC - ONE_BTC, btcHeld: 0n, usdt: OWED });
        } finally {
          await s.cleanup();
        }
      },
    );
  });
}

// Two instances share one database only on PostgreSQL (PGlite is one process's).
if (backends().includes('postgres')) {
  describe('two instances on one PostgreSQL database look up the same orders (postgres)', () => {
    let double: BinanceDouble;
    before(async () => {
      double = await startBinanceDouble();
      double.setBook('BTCUSDT', BOOK);
      double.setBalance('BTC', '100');
    });
    after(async () => {
      await double.close();
    });

    test(
      'an answer lost to a crash and an order the venue never got: each completes once, never a second venue order',
      { timeout: 300_000 },
      async () => {
        const { s, client } = await venueService('postgres', double, 2);
        try {
          const a = s.instance(0);
          // Both instances are up (the cluster starts them all).
          const b = s.instance(1);
          // Order 1: instance 0 sends it and dies before the venue's answer arrives (its lease runs out later).
          const first = await orderOneBtc(client);
          const recorded = double.holdNextOrder();
          const approving = approve(s, first).catch(() => null);
          await recorded;
          await a.kill();
          await approving;
          // Instance 1 looks it up once the dead instance's lease has run out.
          const secondAt: ChildService = { ...client, url: () => b.url()! };
          await completed(secondAt, first);
          // Order 2: approved at instance 1; the venue fails before recording it (no order there yet).
          const second = await orderOneBtc(secondAt);
          double.fail('/api/v3/order', 503, 1, 'POST');
          const r = await callJson({ ...s, url: () => b.url()! }, 'POST', `/operator/v1/orders/${second}/approve`, {}, 'operator');
          assert.equal(r.status, 200, r.raw);
          assert.equal(r.data.state, 'approved');
          assert.equal(double.ordersPerClientId().get(second), undefined);
          // Both instances now look it up; one sends it again (same client id) once its recvWindow has passed.
          await a.start();
          await completed(secondAt, second);
          await new Promise((res) => setTimeout(res, 3_000));
          assert.equal(double.ordersPerClientId().get(first), 1);
          assert.equal(double.ordersPerClientId().get(second), 1);
          assert.deepEqual(await balances(secondAt), { btc: FUNDED_BTC - 2n * ONE_BTC, btcHeld: 0n, usdt: 2n * OWED });
        } finally {
          await s.cleanup();
        }
      },
    );
  });
}
