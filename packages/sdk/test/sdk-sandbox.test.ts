import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listAssets, makeHarness, seedOrg, type Harness } from '../../server/test/harness.ts';
import { startReceiver } from '../../server/test/webhook-receiver.ts';
import { Cambio, ConflictError, NotFoundError, verifyWebhook } from '../src/index.ts';

describe('SDK sandbox calls against the real server', () => {
  let h: Harness;
  let base: string;
  const client = async (scopes: string[]) =>
    new Cambio({ apiKey: (await seedOrg(h, { scopes })).key, baseUrl: base, lang: 'en', retry: { sleep: async () => {} } });

  before(async () => {
    h = await makeHarness();
    await listAssets(h, { BTC: 8 });
    assert.equal((await h.op('PUT', '/wallets/BTC', { network: 'bitcoin', address: 'bc1q-sdk' })).status, 200);
    base = await h.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => h?.close());

  test('sandbox.deposit credits the open declaration of that exact amount, else waits unattributed; a repeated txid is a ConflictError', async () => {
    const c = await client(['portal:read', 'portal:deposit']);
    const decl = (await c.deposits.declare({ assetSymbol: 'BTC', assetDecimals: 8, declaredAmountMinor: 20_000_000n })).data;
    const d = await c.sandbox.deposit({ assetSymbol: 'BTC', amountMinor: decl.expectedAmountMinor, txid: 'sdk-sbx-1' });
    assert.deepEqual([d.state, d.money.amountMinor, d.network, d.txid], ['credited', decl.expectedAmountMinor, 'bitcoin', 'sdk-sbx-1']);
    assert.equal((await c.balances.list()).find((b) => b.assetSymbol === 'BTC')?.amountMinor, decl.expectedAmountMinor);
    const stray = await c.sandbox.deposit({ assetSymbol: 'BTC', amountMinor: 777n, network: 'bitcoin' });
    assert.equal(stray.state, 'unattributed');
    await assert.rejects(c.sandbox.deposit({ assetSymbol: 'BTC', amountMinor: 1n, txid: 'sdk-sbx-1' }), ConflictError);
  });

  test('webhooks.test answers the outcome of a signed webhook.test sent now', async () => {
    const rx = await startReceiver();
    try {
      const c = await client(['portal:webhooks']);
      const w = await c.webhooks.create({ url: rx.url });
      const t = await c.webhooks.test(w.id);
      assert.deepEqual([t.type, t.state, t.statusCode, t.responseExcerpt, t.error], ['webhook.test', 'delivered', 200, 'ok', null]);
      const got = await verifyWebhook(w.secret, rx.received[0]!.headers as Record<string, string>, rx.received[0]!.body);
      assert.equal(got.type, 'webhook.test');
      await assert.rejects(c.webhooks.test('wh_missing'), NotFoundError);
    } finally {
      await rx.close();
    }
  });
});
