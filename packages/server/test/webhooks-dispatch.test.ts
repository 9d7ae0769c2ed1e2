import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import type { WebhookAnswer, WebhookPost, WebhookSender } from '../src/usecases/ports.ts';
import { dispatchWebhooks } from '../src/usecases/webhooks/deliver-due.ts';
import { ALL_SCOPES, backends, listAssets, makeHarness, seedOrg, type Harness, type SeededOrg } from './harness.ts';

const SCOPES = [...ALL_SCOPES, 'portal:webhooks'];
let account = 20_000_000;

/** A state change of the organization: a destination registered (one `destination.registered` event). */
async function emit(h: Harness, o: SeededOrg): Promise<void> {
  const r = await h.call(o.key, 'POST', '/withdrawals/destinations/bank', {
    label: 'D',
    assetSymbol: 'USD',
    bankName: 'Banco',
    accountKind: 'checking',
    accountNumber: String(account++),
    holderName: 'Acme SA',
    holderDocument: '30-1',
  });
  assert.equal(r.status, 201, r.raw);
}

async function register(h: Harness, o: SeededOrg, url: string): Promise<string> {
  const r = await h.call(o.key, 'POST', '/webhooks', { url, types: ['destination.registered'] });
  assert.equal(r.status, 201, r.raw);
  return r.body.data.id;
}

async function states(h: Harness, o: SeededOrg, id: string): Promise<string[]> {
  const r = await h.call(o.key, 'GET', `/webhooks/${id}/deliveries?limit=100`);
  assert.equal(r.status, 200, r.raw);
  return (r.body.data as Array<{ state: string }>).map((d) => d.state);
}

/**
 * A receiver that never answers holds back only its own deliveries: the dispatcher keeps at most
 * `perEndpoint` of its attempts in flight, and the healthy endpoint's deliveries (same events, same
 * organization) are all made while the stuck ones wait. Released, the stuck ones are delivered too,
 * each event once per endpoint.
 */
for (const backend of backends()) {
  describe(`webhook dispatch at volume [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '60000' } });
      await listAssets(h, { USD: 2 });
    });
    after(async () => h?.close());

    test('a stuck receiver ties up only its own slots; the healthy endpoint gets every event meanwhile', { timeout: 60_000 }, async () => {
      const o = await seedOrg(h, { scopes: SCOPES });
      const stuckId = await register(h, o, 'https://stuck.example.test/in');
      const healthyId = await register(h, o, 'https://healthy.example.test/in');
      const EVENTS = 12;
      for (let i = 0; i < EVENTS; i++) await emit(h, o);

      const held: Array<() => void> = [];
      let stuckInFlight = 0;
      let stuckMax = 0;
      const sent: string[] = [];
      const sender: WebhookSender = {
        post: (p: WebhookPost): Promise<WebhookAnswer> => {
          sent.push(`${new URL(p.url).host} ${p.headers['webhook-id']}`);
          if (!p.url.includes('stuck')) return Promise.resolve({ statusCode: 204 });
          stuckInFlight++;
          stuckMax = Math.max(stuckMax, stuckInFlight);
          return new Promise((resolve) =>
            held.push(() => {
              stuckInFlight--;
              resolve({ statusCode: 204 });
            }),
          );
        },
      };
      const stop = new AbortController();
      const run = dispatchWebhooks(h.deps, { sender, inFlight: 6, perEndpoint: 2, pollMs: 20, signal: stop.signal });

      // The healthy endpoint's twelve are all delivered while the stuck receiver still holds its two.
      for (
        const end = Date.now() + 30_000;
        Date.now() < end && (await states(h, o, healthyId)).filter((s) => s === 'delivered').length < EVENTS;
      ) {
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.deepEqual(await states(h, o, healthyId), Array(EVENTS).fill('delivered'));
      assert.equal(held.length, 2, 'two attempts of the stuck endpoint in flight, no more');
      assert.equal(stuckMax, 2);
      assert.equal((await states(h, o, stuckId)).filter((s) => s === 'delivered').length, 0);

      // Released one by one (each answer frees a slot for the next), the stuck endpoint catches up.
      for (
        const end = Date.now() + 30_000;
        Date.now() < end && (await states(h, o, stuckId)).filter((s) => s === 'delivered').length < EVENTS;
      ) {
        held.splice(0).forEach((release) => release());
        await new Promise((r) => setTimeout(r, 20));
      }
      stop.abort();
      held.splice(0).forEach((release) => release());
      await run;
      assert.deepEqual(await states(h, o, stuckId), Array(EVENTS).fill('delivered'));
      assert.ok(stuckMax <= 2, `never more than two in flight for one endpoint (saw ${stuckMax})`);
      assert.equal(sent.length, 2 * EVENTS, 'each event sent once to each endpoint');
      assert.equal(new Set(sent).size, 2 * EVENTS);

      const health = await h.call(o.key, 'GET', `/webhooks/${stuckId}/health`);
      assert.equal(health.status, 200, health.raw);
      assert.deepEqual(
        { ...health.body.data, lastSuccessAt: typeof health.body.data.lastSuccessAt },
        {
          windowHours: 24,
          attempts: EVENTS,
          succeeded: EVENTS,
          successRatePct: 100,
          pending: 0,
          retrying: 0,
          nextRetryAt: null,
          lastSuccessAt: 'string',
          lastFailure: null,
        },
      );
      const other = await seedOrg(h, { scopes: SCOPES });
      const foreign = await h.call(other.key, 'GET', `/webhooks/${stuckId}/health`);
      assert.equal(foreign.status, 404, "another organization's endpoint is not found");
      assert.equal(foreign.body.code, 'webhooks.not_found');
    });

    /**
     * An attempt that ends while a claim is running frees its endpoint's slot after the claim counted it:
     * that claim finds nothing, and nothing is left in flight, yet deliveries are due. The run claims again
     * instead of returning (a store slow to answer a claim, as on a loaded machine, makes it happen every time).
     */
    test('an attempt ending during a claim that found nothing does not end the run with deliveries due', { timeout: 30_000 }, async () => {
      const o = await seedOrg(h, { scopes: SCOPES });
      const id = await register(h, o, 'https://one.example.test/in');
      const EVENTS = 4;
      for (let i = 0; i < EVENTS; i++) await emit(h, o);
      const real = h.store.webhooks;
      const webhooks = {
        claim: async (...a: Parameters<typeof real.claim>) => {
          const claimed = await real.claim(...a);
          await new Promise((r) => setTimeout(r, 150));
          return claimed;
        },
        recordDelivered: (...a: Parameters<typeof real.recordDelivered>) => real.recordDelivered(...a),
      };
      const store = Object.assign(Object.create(h.store) as object, { webhooks }) as unknown as typeof h.store;
      const sender: WebhookSender = { post: () => new Promise((r) => setTimeout(() => r({ statusCode: 204 }), 30)) };
      await dispatchWebhooks({ ...h.deps, store }, { sender, inFlight: 4, perEndpoint: 1, pollMs: 10 });
      assert.deepEqual(await states(h, o, id), Array(EVENTS).fill('delivered'));
    });

    /**
     * A state change answered by the API nudges the worker: its event's delivery is attempted at once, not
     * at the next poll (here a minute away). On PostgreSQL the nudge reaches another instance on the same
     * store too (NOTIFY), whose worker delivers it as promptly.
     */
    test('a committed change wakes the waiting worker at once, here and on another instance', { timeout: 60_000 }, async () => {
      const o = await seedOrg(h, { scopes: SCOPES });
      await register(h, o, 'https://prompt.example.test/in');
      const other = backend === 'postgres' ? await makeHarness({ backend, storage: { databaseUrl: h.config.databaseUrl! } }) : null;
      const worker = other ?? h;
      let arrived: (() => void) | null = null;
      const sender: WebhookSender = {
        post: () => {
          arrived?.();
          return Promise.resolve({ statusCode: 204 });
        },
      };
      const stop = new AbortController();
      try {
        const run = dispatchWebhooks(worker.deps, {
          sender,
          inFlight: 4,
          perEndpoint: 2,
          pollMs: 60_000,
          signal: stop.signal,
          wakes: worker.store.webhooks.wakes,
        });
        // The worker's first claim finds nothing; then it waits for a nudge (or the poll, a minute away).
        await new Promise((r) => setTimeout(r, 300));
        for (let i = 0; i < 3; i++) {
          const sent = new Promise<void>((resolve) => {
            arrived = resolve;
          });
          const t0 = Date.now();
          await emit(h, o);
          const waited = await Promise.race([
            sent.then(() => Date.now() - t0),
            new Promise<number>((r) => setTimeout(() => r(-1), 10_000)),
          ]);
          assert.ok(waited >= 0 && waited < 10_000, `attempted ${waited} ms after the change was answered (not at the poll)`);
        }
        stop.abort();
        assert.equal(await run, 3);
      } finally {
        stop.abort();
        await other?.close();
      }
    });
  });
}

/**
 * Deleting an endpoint while one of its attempts is being recorded: the recording holds the delivery and
 * then takes the endpoint (its failure streak); the deletion takes the deliveries before the endpoint, so
 * it waits for the recording instead of deadlocking with it (a deadlock would answer 503 to the client).
 */
if (backends().includes('postgres')) {
  describe('deleting an endpoint during a recording [postgres]', () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend: 'postgres', env: { CAMBIO_DESTINATION_COOLDOWN_MS: '60000' } });
      await listAssets(h, { USD: 2 });
    });
    after(async () => h?.close());

    test('the deletion waits for the recording, and both succeed', { timeout: 30_000 }, async () => {
      const o = await seedOrg(h, { scopes: SCOPES });
      const id = await register(h, o, 'https://gone.example.test/in');
      await emit(h, o);
      const recording = new pg.Client({ connectionString: h.config.databaseUrl! });
      await recording.connect();
      try {
        await recording.query('begin');
        await recording.query(`update webhook_deliveries set updated_at = now() where endpoint_id = $1`, [id]);
        const deleting = h.call(o.key, 'DELETE', `/webhooks/${id}`);
        await new Promise((r) => setTimeout(r, 300));
        await recording.query(`update webhook_endpoints set failing_since = coalesce(failing_since, now()) where id = $1`, [id]);
        await recording.query('commit');
        const d = await deleting;
        assert.equal(d.status, 200, d.raw);
        assert.equal((await h.call(o.key, 'GET', `/webhooks/${id}`)).status, 404);
      } finally {
        await recording.end();
      }
    });
  });
}
