import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from '../src/index.ts';
import { deliverDueWebhooks } from '../../server/src/usecases/webhooks/deliver-due.ts';
import { webhookSenderOf } from '../../server/src/webhooks/http-sender.ts';
import { ALL_SCOPES, listAssets, makeHarness, seedOrg, type Harness } from '../../server/test/harness.ts';
import { startReceiver } from '../../server/test/webhook-receiver.ts';

const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const OTHER = `whsec_${Buffer.from('fedcba9876543210fedcba9876543210').toString('base64')}`;
const BODY = JSON.stringify({
  id: 'evt_42',
  type: 'order.completed',
  createdAt: '2026-01-01T00:00:00.000Z',
  data: { id: 'ord_1', state: 'completed', amount: 'ñ €' },
});

/** Headers as the standardwebhooks package signs them. */
function signed(secrets: string[], body = BODY, at = new Date(), id = 'evt_42') {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.trunc(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' '),
  };
}

describe('verifyWebhook: what the standardwebhooks package signed', () => {
  test('verifies, from a plain object, a fetch Headers, or bytes; returns the event', async () => {
    const h = signed([SECRET]);
    const e = await verifyWebhook(SECRET, h, BODY);
    assert.deepEqual(e, JSON.parse(BODY));
    assert.equal((await verifyWebhook(SECRET, new Headers(h), BODY)).id, 'evt_42');
    assert.equal(
      (
        await verifyWebhook(
          SECRET,
          Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toUpperCase(), v])),
          new TextEncoder().encode(BODY),
        )
      ).type,
      'order.completed',
    );
  });

  test("a rotation's two signatures: either secret verifies; a third does not", async () => {
    const h = signed([OTHER, SECRET]);
    await verifyWebhook(SECRET, h, BODY);
    await verifyWebhook(OTHER, h, BODY);
    const third = `whsec_${Buffer.from('x'.repeat(32)).toString('base64')}`;
    await assert.rejects(verifyWebhook(third, h, BODY), WebhookVerificationError);
  });

  test('refused: another secret, an altered body, id or timestamp, a stale or future timestamp, missing headers', async () => {
    const h = signed([SECRET]);
    await assert.rejects(verifyWebhook(OTHER, h, BODY), /no signature matches/);
    await assert.rejects(verifyWebhook(SECRET, h, BODY.replace('ord_1', 'ord_2')), /no signature matches/);
    await assert.rejects(verifyWebhook(SECRET, { ...h, 'webhook-id': 'evt_43' }, BODY), /no signature matches/);
    await assert.rejects(
      verifyWebhook(SECRET, { ...h, 'webhook-timestamp': String(Number(h['webhook-timestamp']) + 1) }, BODY),
      /no signature matches/,
    );
    const old = signed([SECRET], BODY, new Date(Date.now() - 301_000));
    await assert.rejects(verifyWebhook(SECRET, old, BODY), /too old or too new/);
    await verifyWebhook(SECRET, old, BODY, { toleranceSeconds: 600 });
    await assert.rejects(verifyWebhook(SECRET, signed([SECRET], BODY, new Date(Date.now() + 301_000)), BODY), /too old or too new/);
    await assert.rejects(verifyWebhook(SECRET, { 'webhook-id': 'evt_42', 'webhook-timestamp': h['webhook-timestamp'] }, BODY), /missing/);
    // A valid signature over a body whose event is another one: the id must be the webhook-id.
    const other = JSON.stringify({ id: 'evt_7', type: 'order.completed', createdAt: '2026-01-01T00:00:00.000Z', data: {} });
    await assert.rejects(verifyWebhook(SECRET, signed([SECRET], other), other), /event id is not the webhook-id/);
    // And the package agrees on each refusal it can judge.
    assert.throws(() => new Webhook(OTHER).verify(BODY, h));
    assert.throws(() => new Webhook(SECRET).verify(BODY.replace('ord_1', 'ord_2'), h));
  });
});

describe('what the server sent: the package and verifyWebhook both verify it', () => {
  let h: Harness;
  before(async () => {
    h = await makeHarness({ manualClock: true, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '60000' } });
    await listAssets(h, { USD: 2 });
  });
  after(async () => h?.close());

  test('a delivery, and one during a rotation (two signatures)', async () => {
    const rx = await startReceiver();
    try {
      const o = await seedOrg(h, { scopes: [...ALL_SCOPES, 'portal:webhooks'] });
      const w = await h.call(o.key, 'POST', '/webhooks', { url: rx.url });
      assert.equal(w.status, 201, w.raw);
      const first = w.body.data.secret as string;
      const emit = async (n: string) =>
        assert.equal(
          (
            await h.call(o.key, 'POST', '/withdrawals/destinations/bank', {
              label: 'D',
              assetSymbol: 'USD',
              bankName: 'Banco',
              accountKind: 'checking',
              accountNumber: n,
              holderName: 'Acme SA',
              holderDocument: '30-1',
            })
          ).status,
          201,
        );
      await emit('11112222');
      const rot = await h.call(o.key, 'POST', `/webhooks/${w.body.data.id}/rotate-secret`);
      const second = rot.body.data.secret as string;
      await emit('33334444');
      const sender = webhookSenderOf(h.deps);
      while ((await deliverDueWebhooks(h.deps, { sender })) > 0);
      assert.equal(rx.received.length, 2);
      const events = (await h.call(o.key, 'GET', '/events')).body.data as Array<{ id: string }>;
      for (const [i, r] of rx.received.entries()) {
        const headers = r.headers as Record<string, string>;
        const fromPackage = new Webhook(second).verify(r.body, headers);
        const fromSdk = await verifyWebhook(second, r.headers, r.body);
        assert.deepEqual(fromSdk, fromPackage);
        assert.deepEqual(
          fromSdk,
          events.find((e) => e.id === r.id),
        );
        assert.equal(fromSdk.type, 'destination.registered');
        // Both deliveries happen after the rotation, inside its overlap: the first secret verifies too.
        new Webhook(first).verify(r.body, headers);
        await verifyWebhook(first, r.headers, r.body);
        assert.equal(String(headers['webhook-signature']).split(' ').length, 2, `delivery ${i}`);
      }
    } finally {
      await rx.close();
    }
  });
});
