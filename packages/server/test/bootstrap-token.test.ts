import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  backends,
  btcUsdMarket,
  held,
  makeHarness,
  OPERATOR_TOKEN,
  SECRET,
  seedOrg,
  signedInStaff,
  withCookie,
  type Backend,
  type Harness,
} from './harness.ts';

/** The bootstrap token itself, with no help from the harness. */
async function asBootstrap(h: Harness, method: string, url: string, body: unknown = {}) {
  const r = await h.app.inject({
    method: method as 'POST',
    url: `/operator/v1${url}`,
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json', 'x-lang': 'en', 'x-operator': 'ana' },
    payload: JSON.stringify(body),
  });
  return { status: r.statusCode, body: r.json() };
}

async function pendingOrder(h: Harness, key: string): Promise<string> {
  const q = await h.call(key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
  assert.equal(q.status, 201, q.raw);
  const o = await h.call(key, 'POST', '/orders', { quoteId: q.body.data.id });
  assert.equal(o.status, 201, o.raw);
  return o.body.data.id;
}

for (const backend of backends()) {
  describe(`production: the bootstrap token sets up staff and decides nothing (${backend})`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend: backend as Backend, env: { CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET } });
      await btcUsdMarket(h);
    });
    after(async () => h?.close());

    test('it invites staff and sets up the platform', async () => {
      const s = await asBootstrap(h, 'POST', '/staff', { name: 'Ana Admin', email: 'ana@desk.example', role: 'admin' });
      assert.equal(s.status, 201);
      assert.equal((await asBootstrap(h, 'PUT', '/market/assets/EUR', { decimals: 2 })).status, 200);
    });

    test('every decision is 403 auth.bootstrap_cannot_decide and changes nothing; a staff approver with TOTP makes it', async () => {
      const o = await seedOrg(h, { balances: { BTC: 10_000_000n } });
      const id = await pendingOrder(h, o.key);
      for (const [method, url, body] of [
        ['POST', `/orders/${id}/approve`, {}],
        ['POST', `/orders/${id}/reject`, { reason: 'no' }],
        ['POST', `/orders/${id}/fill`, { venue: 'v', venueReference: 'r', proceedsQuoteMinor: '1' }],
        ['POST', `/orders/${id}/fail`, { reason: 'no' }],
        ['POST', '/withdrawals/wd_x/approve', {}],
        ['POST', '/withdrawals/wd_x/payout', { payoutReference: 'p' }],
        ['POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'BTC', amountMinor: '1', reason: 'x' }],
        ['POST', '/deposits', { assetSymbol: 'BTC', network: 'bitcoin', amountMinor: '5', txid: 'tx-1' }],
        ['POST', '/deposits/dep_x/attribute', { organizationId: o.orgId }],
        ['POST', '/reconciliation/resolve', {}],
      ] as const) {
        const r = await asBootstrap(h, method, url, body);
        assert.deepEqual([r.status, r.body.code], [403, 'auth.bootstrap_cannot_decide'], `${method} ${url}`);
        assert.match(r.body.message, /decides nothing/);
      }
      const order = (await asBootstrap(h, 'GET', `/orders?state=pending_approval`)).body.data.find((x: { id: string }) => x.id === id);
      assert.equal(order?.state, 'pending_approval');
      assert.equal(await held(h, o.key, 'BTC'), 1_000_000n);

      const approver = await signedInStaff(h, 'approver');
      const r = await withCookie(h, approver.cookie, 'POST', `/operator/v1/orders/${id}/approve`, {});
      assert.deepEqual([r.status, r.body.data.state], [200, 'approved']);
    });
  });

  describe(`sandbox: the bootstrap token keeps working as the README's tour shows (${backend})`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend: backend as Backend });
      await btcUsdMarket(h);
    });
    after(async () => h?.close());

    test('it approves and adjusts', async () => {
      const o = await seedOrg(h, { balances: { BTC: 10_000_000n } });
      const id = await pendingOrder(h, o.key);
      const r = await asBootstrap(h, 'POST', `/orders/${id}/approve`);
      assert.deepEqual([r.status, r.body.data.state], [200, 'completed']);
      assert.equal(
        (await asBootstrap(h, 'POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'BTC', amountMinor: '1', reason: 'x' }))
          .status,
        201,
      );
    });
  });
}
