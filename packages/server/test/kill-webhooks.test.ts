import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { callJson, childService, until } from './child-service.ts';
import { backends } from './harness.ts';
import { startReceiver } from './webhook-receiver.ts';

const headersOf = (h: IncomingHttpHeaders) => ({
  'webhook-id': String(h['webhook-id']),
  'webhook-timestamp': String(h['webhook-timestamp']),
  'webhook-signature': String(h['webhook-signature']),
});

/**
 * docs/api-guide.md: delivery state lives in the store, so a service killed in the middle of an attempt loses
 * nothing. The service runs as `npm start` does (a child process); the receiver takes the first request
 * and never answers, the service is SIGKILLed while it waits, and started again on the same store.
 * A 5 s lease (CAMBIO_WEBHOOK_LEASE_MS) lets the cut-off attempt become due again soon.
 */
for (const backend of backends()) {
  describe(`webhooks survive a SIGKILL mid-delivery (${backend})`, () => {
    test(
      'the event is delivered again after the restart, same webhook-id, signed, and logged delivered once',
      { timeout: 300_000 },
      async () => {
        const s = await childService(backend, { CAMBIO_WEBHOOK_LEASE_MS: '5000' });
        const rx = await startReceiver((_r, nth) => (nth === 1 ? 'hang' : 204));
        try {
          const hook = await callJson(s, 'POST', '/api/v1/webhooks', { url: rx.url, types: ['declaration.created'] });
          assert.equal(hook.status, 201, hook.raw);

          const inFlight = rx.next();
          const decl = await callJson(s, 'POST', '/api/v1/deposits/declarations', {
            assetSymbol: 'USD',
            assetDecimals: 2,
            declaredAmountMinor: '12345',
          });
          assert.equal(decl.status, 201, decl.raw);
          await inFlight; // the attempt is on the wire and the receiver holds it unanswered
          await s.kill();
          rx.dropHeld();
          await s.start();

          await until(async () => (rx.received.length >= 2 ? true : undefined));
          const [first, again] = rx.received;
          assert.equal(again!.id, first!.id, 'the same webhook-id after the restart');
          const event = new Webhook(hook.data.secret).verify(again!.body, headersOf(again!.headers)) as {
            id: string;
            type: string;
            data: { id: string };
          };
          assert.equal(event.id, first!.id);
          assert.equal(event.type, 'declaration.created');
          assert.equal(event.data.id, decl.data.id, 'the event is the declaration made before the kill');

          const delivery = await until(async () => {
            const r = await callJson(s, 'GET', `/api/v1/webhooks/${hook.data.id}/deliveries`);
            assert.equal(r.status, 200, r.raw);
            return r.data.find((d: { state: string }) => d.state !== 'pending') as
              { eventId: string; state: string; log: Array<{ statusCode: number | null }> } | undefined;
          });
          const all = (await callJson(s, 'GET', `/api/v1/webhooks/${hook.data.id}/deliveries`)).data as unknown[];
          assert.equal(all.length, 1, 'one delivery: the one event');
          assert.equal(delivery.eventId, event.id);
          assert.equal(delivery.state, 'delivered');
          assert.deepEqual(
            delivery.log.map((a) => a.statusCode),
            [204],
            'one attempt recorded, successful (the cut-off one left no outcome)',
          );
          assert.equal(rx.received.length, 2, 'nothing sent after it was delivered');
        } finally {
          await rx.close();
          await s.cleanup();
        }
      },
    );
  });
}
