import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { callJson, childService, until } from './child-service.ts';
import { backends } from './harness.ts';
import { startReceiver, type Received } from './webhook-receiver.ts';

const BURST = 40;
/** The receiver answers this many at once, then holds every request: the burst is cut mid-flight. */
const ANSWERED_BEFORE_KILL = 12;

const headersOf = (r: Received) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});

/**
 * At least once through a crash: a burst of events is being delivered (some answered, some on the wire,
 * some still due) when the service is SIGKILLed. After the restart every event reaches the receiver,
 * signed, under its own stable `webhook-id`, and each delivery ends `delivered` exactly once in the log.
 * Declarations live 1 ms, so each new one closes the one before (one open per organization).
 */
for (const backend of backends()) {
  describe(`a webhook burst survives a SIGKILL (${backend})`, () => {
    test('every event of the burst is delivered after the restart, none lost, each webhook-id stable', { timeout: 300_000 }, async () => {
      const s = await childService(backend, { CAMBIO_WEBHOOK_LEASE_MS: '5000', CAMBIO_DECLARATION_TTL_MS: '1' });
      let restarted = false;
      const rx = await startReceiver((_r, nth) => (restarted || nth <= ANSWERED_BEFORE_KILL ? 204 : 'hang'));
      try {
        const hook = await callJson(s, 'POST', '/api/v1/webhooks', { url: rx.url, types: ['declaration.created'] });
        assert.equal(hook.status, 201, hook.raw);

        const declared: string[] = [];
        for (let n = 0; n < BURST; n++) {
          const d = await callJson(s, 'POST', '/api/v1/deposits/declarations', {
            assetSymbol: 'USD',
            assetDecimals: 2,
            declaredAmountMinor: String(10_000 + n),
          });
          assert.equal(d.status, 201, d.raw);
          declared.push(d.data.id);
        }
        // Some answered, at least one held on the wire: the crash lands in the middle of the burst.
        await until(async () => (rx.received.length > ANSWERED_BEFORE_KILL ? true : undefined));
        await s.kill();
        rx.dropHeld();
        const beforeRestart = rx.received.length;
        restarted = true;
        await s.start();

        const events = await callJson(s, 'GET', '/api/v1/events?limit=100');
        assert.equal(events.status, 200, events.raw);
        const created = (events.data as Array<{ id: string; type: string; data: { id: string } }>).filter(
          (e) => e.type === 'declaration.created',
        );
        assert.deepEqual(created.map((e) => e.data.id).sort(), [...declared].sort(), 'one declaration.created event per declaration');

        // Every event reaches the receiver after the restart (at least once), each answered 204.
        const ids = new Set(created.map((e) => e.id));
        const answered = () => new Set(rx.received.filter((_r, i) => i < ANSWERED_BEFORE_KILL || i >= beforeRestart).map((r) => r.id));
        await until(async () => ([...ids].every((id) => answered().has(id)) ? true : undefined), 200);

        const wh = new Webhook(hook.data.secret);
        const byId = new Map(created.map((e) => [e.id, e]));
        for (const r of rx.received) {
          const verified = wh.verify(r.body, headersOf(r)) as { id: string; type: string; data: { id: string } };
          assert.equal(verified.id, r.id, 'webhook-id is the event id');
          assert.ok(byId.has(r.id), `an event of the burst: ${r.id}`);
          assert.equal(verified.data.id, byId.get(r.id)!.data.id, 'the same event on every attempt');
        }

        const deliveries = await until(async () => {
          const r = await callJson(s, 'GET', `/api/v1/webhooks/${hook.data.id}/deliveries?limit=100`);
          assert.equal(r.status, 200, r.raw);
          const list = r.data as Array<{ eventId: string; state: string }>;
          return list.length === BURST && list.every((d) => d.state === 'delivered') ? list : undefined;
        }, 200);
        assert.deepEqual(deliveries.map((d) => d.eventId).sort(), [...ids].sort(), 'one delivery per event, each delivered');
      } finally {
        await rx.close();
        await s.cleanup();
      }
    });
  });
}
