import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { deliverDueWebhooks } from '../../server/src/usecases/webhooks/deliver-due.ts';
import { webhookSenderOf } from '../../server/src/webhooks/http-sender.ts';
import { ALL_SCOPES, listAssets, makeHarness, seedOrg, type Harness } from '../../server/test/harness.ts';
import { startReceiver } from '../../server/test/webhook-receiver.ts';
import { Cambio, NotFoundError, PermissionError, verifyWebhook, type FetchLike } from '../src/index.ts';

const SCOPES = [...ALL_SCOPES, 'portal:webhooks'];

describe('SDK webhook endpoints against the real server', () => {
  let h: Harness;
  let base: string;
  const client = async (o: { scopes?: string[]; fetch?: FetchLike } = {}) => {
    const s = await seedOrg(h, { scopes: o.scopes ?? SCOPES });
    return new Cambio({
      apiKey: s.key,
      baseUrl: base,
      lang: 'en',
      retry: { sleep: async () => {} },
      ...(o.fetch ? { fetch: o.fetch } : {}),
    });
  };
  const emit = (c: Cambio, accountNumber: string) =>
    c.withdrawals.registerBankDestination({
      label: 'D',
      assetSymbol: 'USD',
      bankName: 'Banco',
      accountKind: 'checking',
      accountNumber,
      holderName: 'Acme SA',
      holderDocument: '30-1',
    });
  const runWorker = async () => {
    const sender = webhookSenderOf(h.deps);
    while ((await deliverDueWebhooks(h.deps, { sender })) > 0);
  };

  before(async () => {
    h = await makeHarness({ manualClock: true, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '60000' } });
    await listAssets(h, { USD: 2 });
    base = await h.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => h?.close());

  test('create shows the whsec_ secret once; list and get never; a delivery appears, verifies, and is replayed', async () => {
    const rx = await startReceiver();
    try {
      const cambio = await client();
      const created = await cambio.webhooks.create({ url: rx.url, types: ['destination.registered'] });
      assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.deepEqual(
        [created.url, created.types, created.status, created.failingSince],
        [rx.url, ['destination.registered'], 'enabled', null],
      );
      const list = await cambio.webhooks.list();
      assert.deepEqual(
        list.map((w) => [w.id, w.url, w.status]),
        [[created.id, rx.url, 'enabled']],
      );
      assert.equal((list[0] as Record<string, unknown>).secret, undefined, 'the list never shows the secret');
      const one = await cambio.webhooks.get(created.id);
      assert.equal((one as Record<string, unknown>).secret, undefined);
      const { secret, ...shown } = created;
      assert.deepEqual(one, shown);

      const dest = await emit(cambio, '11112222');
      await runWorker();
      assert.equal(rx.received.length, 1);
      const event = await verifyWebhook(secret, rx.received[0]!.headers, rx.received[0]!.body);
      assert.equal(event.type, 'destination.registered');
      const page = await cambio.webhooks.deliveries(created.id);
      assert.deepEqual(
        page.items.map((d) => [d.eventId, d.eventType, d.state, d.attempts, d.lastStatusCode]),
        [[event.id, 'destination.registered', 'delivered', 1, 200]],
      );
      assert.equal(page.pagination.total, 1);
      assert.equal((event.data as { id: string }).id, dest.data.id);

      const replay = await cambio.webhooks.replay(created.id, event.id);
      assert.deepEqual([replay.eventId, replay.state], [event.id, 'pending']);
      await runWorker();
      assert.equal(rx.received.length, 2);
      assert.equal(rx.received[1]!.id, event.id, 'the same webhook-id again');
      await verifyWebhook(secret, rx.received[1]!.headers, rx.received[1]!.body);
      await assert.rejects(
        cambio.webhooks.replay(created.id, 'evt_aaaaaaaaaaaaaaaaaaaaaaaaaa'),
        (e: unknown) => e instanceof NotFoundError && e.code === 'webhooks.event_not_found',
      );
    } finally {
      await rx.close();
    }
  });

  test('rotateSecret: a new secret once, the previous one kept for 24 h; enable; delete answers the endpoint, then 404', async () => {
    const cambio = await client();
    const created = await cambio.webhooks.create({ url: 'https://hooks.example.test/in' });
    assert.equal(created.types, null, 'no types: every type');
    const rotated = await cambio.webhooks.rotateSecret(created.id);
    assert.match(rotated.secret, /^whsec_/);
    assert.notEqual(rotated.secret, created.secret);
    assert.equal(Date.parse(rotated.previousSecretUntil!) - Date.parse(h.clock.now().toISOString()), 24 * 3_600_000);
    assert.equal((await cambio.webhooks.enable(created.id)).status, 'enabled');
    const gone = await cambio.webhooks.delete(created.id);
    assert.equal(gone.id, created.id);
    assert.deepEqual(await cambio.webhooks.list(), []);
    await assert.rejects(cambio.webhooks.get(created.id), (e: unknown) => e instanceof NotFoundError && e.code === 'webhooks.not_found');
    await assert.rejects(cambio.webhooks.delete(created.id), NotFoundError);
  });

  test('a lost answer to create is re-sent with the same Idempotency-Key: one endpoint, the same secret', async () => {
    let lost = 0;
    const keys: string[] = [];
    const f: FetchLike = async (url, init) => {
      const res = await fetch(url, init);
      if (String(init.method) === 'POST' && new URL(url).pathname === '/api/v1/webhooks') {
        keys.push((init.headers as Record<string, string>)['idempotency-key']!);
        if (lost++ === 0) {
          await res.text();
          throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
        }
      }
      return res;
    };
    const cambio = await client({ fetch: f });
    const created = await cambio.webhooks.create({ url: 'https://hooks.example.test/lost' });
    assert.equal(keys.length, 2);
    assert.equal(keys[0], keys[1], 'the same key on the resend');
    assert.match(keys[0]!, /^[0-9a-f]{32}$/);
    const list = await cambio.webhooks.list();
    assert.deepEqual(
      list.map((w) => w.id),
      [created.id],
      'one endpoint, not two',
    );
    assert.match(created.secret, /^whsec_/);
    // The caller's own key (an app's one action): the same key again answers the kept answer, nothing new.
    const again = await cambio.webhooks.create({ url: 'https://hooks.example.test/mine' }, { idempotencyKey: 'portal-action-1' });
    const repeat = await cambio.webhooks.create({ url: 'https://hooks.example.test/mine' }, { idempotencyKey: 'portal-action-1' });
    assert.deepEqual([repeat.id, repeat.secret], [again.id, again.secret]);
    assert.equal((await cambio.webhooks.list()).length, 2);
  });

  test('a key without portal:webhooks is refused and creates nothing', async () => {
    const s = await seedOrg(h, { scopes: ['portal:read'] });
    const narrow = new Cambio({ apiKey: s.key, baseUrl: base, lang: 'en' });
    await assert.rejects(
      narrow.webhooks.create({ url: 'https://hooks.example.test/x' }),
      (e: unknown) => e instanceof PermissionError && e.code === 'auth.scope_missing',
    );
    await assert.rejects(narrow.webhooks.list(), PermissionError);
    const wide = await h.op('POST', `/members/${s.memberId}/api-keys`, { scopes: SCOPES });
    const sameOrg = new Cambio({ apiKey: wide.body.data.key, baseUrl: base, lang: 'en' });
    assert.deepEqual(await sameOrg.webhooks.list(), [], 'the refusal created nothing');
  });
});
