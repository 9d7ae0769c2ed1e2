import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends, listAssets, makeHarness, seedOrg, type Harness } from '../../server/test/harness.ts';
import { Cambio, IdempotencyKeyReusedError, type FetchLike } from '../src/index.ts';
import { fail, hang, ok, routedFetch, sdk } from './fake-fetch.ts';

const wd = (id: string) => {
  const at = new Date().toISOString();
  return {
    id,
    state: 'pending_approval',
    money: { assetSymbol: 'USD', assetDecimals: 2, amountMinor: '5000' },
    destinationId: 'dst1',
    destinationSummary: 'Bank ••1234',
    reason: null,
    createdAt: at,
    updatedAt: at,
  };
};
const body = { destinationId: 'dst1', assetSymbol: 'USD', assetDecimals: 2, amountMinor: 5000n };
const page = (items: unknown[]) => ok(items, { pagination: { page: 1, limit: 100, total: items.length, totalPages: 1 } });

describe('Idempotency-Key from the SDK (offline)', () => {
  test('every creating call sends a fresh key; its retries send the same key; reads send none', async () => {
    const f = routedFetch({
      'POST /api/v1/withdrawals': [hang, () => ok(wd('w1'), {}, 201), () => ok(wd('w2'), {}, 201)],
      'GET /api/v1/withdrawals': [() => page([])],
    });
    const { c } = sdk(f.fetch, {}, { timeoutMs: 30 });
    const first = await c.withdrawals.create(body);
    assert.equal(first.outcome, 'resent_after_timeout');
    const second = await c.withdrawals.create(body);
    assert.equal(second.data.id, 'w2');
    const posts = f.calls.filter((x) => x.method === 'POST').map((x) => x.headers['idempotency-key']);
    assert.equal(posts.length, 3);
    assert.match(posts[0]!, /^[0-9a-f]{32}$/);
    assert.equal(posts[1], posts[0], 'the resend of a lost attempt carries its key');
    assert.notEqual(posts[2], posts[0], 'a new call, a new key');
    assert.ok(f.calls.filter((x) => x.method === 'GET').every((x) => x.headers['idempotency-key'] === undefined));
  });

  test('409 idempotency.in_progress is waited out with backoff; the kept answer then arrives, marked replayed', async () => {
    const replayed = () =>
      new Response(
        JSON.stringify({
          success: true,
          message: null,
          data: wd('w1'),
          code: null,
          timestamp: new Date().toISOString(),
          traceId: 't',
          pagination: null,
        }),
        { status: 201, headers: { 'content-type': 'application/json', 'idempotent-replayed': 'true' } },
      );
    const f = routedFetch({ 'POST /api/v1/orders': [() => fail(409, 'idempotency.in_progress'), replayed] });
    const { c, sleeps } = sdk(f.fetch);
    const r = await c.orders.create({ quoteId: 'q1' });
    assert.equal(r.data.id, 'w1');
    assert.equal(r.replayed, true);
    assert.equal(sleeps.length, 1);
    assert.equal(f.calls[0]!.headers['idempotency-key'], f.calls[1]!.headers['idempotency-key']);
  });

  test('422 idempotency.key_reused is an IdempotencyKeyReusedError, never retried', async () => {
    const f = routedFetch({ 'POST /api/v1/orders': [() => fail(422, 'idempotency.key_reused')] });
    await assert.rejects(sdk(f.fetch).c.orders.create({ quoteId: 'q1' }), IdempotencyKeyReusedError);
    assert.equal(f.count('POST /api/v1/orders'), 1);
  });
});

for (const backend of backends()) {
  describe(`Idempotency-Key from the SDK against the server [${backend}]`, () => {
    let h: Harness;
    let base: string;
    before(async () => {
      h = await makeHarness({ backend, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
      base = await h.app.listen({ port: 0, host: '127.0.0.1' });
      await listAssets(h, { USD: 2 });
    });
    after(async () => h?.close());

    test('a lost withdrawal answer that the read-back does not see: the retry with the same key gets the kept answer, one withdrawal', async () => {
      const o = await seedOrg(h, { balances: { USD: 100_000n }, scopes: ['portal:withdraw', 'portal:destinations', 'portal:read'] });
      const dst = await (async () => {
        const c = new Cambio({ apiKey: o.key, baseUrl: base, lang: 'en' });
        const d = await c.withdrawals.registerBankDestination({
          label: 'Main',
          assetSymbol: 'USD',
          bankName: 'Banco Río',
          accountKind: 'checking',
          accountNumber: '77778888',
          holderName: 'Acme SA',
          holderDocument: '30-1',
        });
        assert.equal((await h.op('POST', `/destinations/${d.data.id}/register-in-market`)).status, 200);
        return d.data.id;
      })();
      // The first answer to the POST is lost; the read-back is made to see nothing (as a server whose
      // list lags would), so the SDK re-sends: the key makes the server answer the first withdrawal again.
      let lost = 0;
      const f: FetchLike = async (url, init) => {
        const path = new URL(url).pathname;
        if (init.method === 'GET' && path === '/api/v1/withdrawals') {
          return new Response(
            JSON.stringify({
              success: true,
              message: null,
              data: [],
              code: null,
              timestamp: new Date().toISOString(),
              traceId: 't',
              pagination: { page: 1, limit: 100, total: 0, totalPages: 0 },
            }),
            { status: 200, headers: { 'content-type': 'application/json' } },
          );
        }
        const res = await fetch(url, init);
        if (lost === 0 && init.method === 'POST' && path === '/api/v1/withdrawals' && res.ok) {
          lost++;
          await res.text();
          throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
        }
        return res;
      };
      const c = new Cambio({ apiKey: o.key, baseUrl: base, lang: 'en', fetch: f, retry: { sleep: async () => {} } });
      const r = await c.withdrawals.create({ destinationId: dst, assetSymbol: 'USD', assetDecimals: 2, amountMinor: 25_000n });
      assert.equal(r.outcome, 'resent_after_timeout');
      assert.equal(r.replayed, true);
      const all = await h.call(o.key, 'GET', '/withdrawals');
      assert.deepEqual(
        all.body.data.map((w: { id: string }) => w.id),
        [r.data.id],
        'one withdrawal, the one returned',
      );
      const bal = await h.call(o.key, 'GET', '/balances');
      assert.equal(bal.body.data.find((b: { assetSymbol: string }) => b.assetSymbol === 'USD').heldMinor, '25000');
    });
  });
}
