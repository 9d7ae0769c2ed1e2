import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { backgroundTasks } from '../src/background.ts';
import type { ManualClock } from '../src/domain/ports.ts';
import { deliverDueWebhooks } from '../src/usecases/webhooks/deliver-due.ts';
import { webhookSenderOf } from '../src/webhooks/http-sender.ts';
import {
  ALL_SCOPES,
  backends,
  createPgDatabase,
  eventsSettled,
  listAssets,
  makeHarness,
  SECRET,
  seedOrg,
  type Backend,
  type Harness,
  type SeededOrg,
} from './harness.ts';
import { startReceiver, type Received } from './webhook-receiver.ts';

const SCOPES = [...ALL_SCOPES, 'portal:webhooks'];
const HOUR = 3_600_000;
let account = 10_000_000;

/** One worker run, no jitter (so the schedule is exact), as the background task makes it. */
const run = (h: Harness) => deliverDueWebhooks(h.deps, { sender: webhookSenderOf(h.deps), random: () => 0.5 });
const clockOf = (h: Harness) => h.clock as ManualClock;
const headersOf = (r: Received) => r.headers as Record<string, string>;

/** A state change of the organization: a destination registered (one `destination.registered` event). */
async function emit(h: Harness, o: SeededOrg): Promise<string> {
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
  return r.body.data.id;
}

async function register(h: Harness, o: SeededOrg, url: string, types?: string[]): Promise<{ id: string; secret: string }> {
  const r = await h.call(o.key, 'POST', '/webhooks', { url, ...(types ? { types } : {}) });
  assert.equal(r.status, 201, r.raw);
  return { id: r.body.data.id, secret: r.body.data.secret };
}

async function deliveries(h: Harness, o: SeededOrg, id: string) {
  const r = await h.call(o.key, 'GET', `/webhooks/${id}/deliveries?limit=100`);
  assert.equal(r.status, 200, r.raw);
  return r.body.data as Array<{
    eventId: string;
    eventType: string;
    state: string;
    attempts: number;
    nextAttemptAt: string | null;
    lastStatusCode: number | null;
    lastError: string | null;
    log: Array<{ attempt: number; statusCode: number | null; error: string | null }>;
  }>;
}

const countRows = async (h: Harness, table: 'webhook_endpoints' | 'webhook_deliveries' | 'webhook_attempts') =>
  Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(h.store.db)).rows[0]!.n);

for (const backend of backends()) {
  describe(`webhooks [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend, manualClock: true, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '60000' } });
      await listAssets(h, { USD: 2 });
    });
    after(async () => h?.close());

    test('register: the whsec_ secret is shown once; refusals (scope, url) create nothing', async () => {
      const o = await seedOrg(h, { scopes: SCOPES });
      const r = await h.call(o.key, 'POST', '/webhooks', {
        url: 'https://hooks.example.test/in',
        types: ['order.completed', 'withdrawal.completed'],
      });
      assert.equal(r.status, 201, r.raw);
      assert.match(r.body.data.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.deepEqual(r.body.data.types, ['order.completed', 'withdrawal.completed']);
      assert.equal(r.body.data.status, 'enabled');
      const list = await h.call(o.key, 'GET', '/webhooks');
      assert.equal(list.status, 200);
      assert.equal(list.body.data.length, 1);
      assert.equal(list.body.data[0].secret, undefined, 'never shown again');
      assert.ok(!list.raw.includes(r.body.data.secret.slice(6)));
      const stored = await h.store.db
        .selectFrom('webhook_endpoints')
        .select('secret_sealed')
        .where('id', '=', r.body.data.id)
        .executeTakeFirstOrThrow();
      assert.ok(!stored.secret_sealed.includes(r.body.data.secret.slice(6)), 'stored sealed, not in clear');

      const before = await countRows(h, 'webhook_endpoints');
      const readOnly = await seedOrg(h, { scopes: ['portal:read'] });
      const denied = await h.call(readOnly.key, 'POST', '/webhooks', { url: 'https://hooks.example.test/in' });
      assert.equal(denied.status, 403);
      assert.equal(denied.body.code, 'auth.scope_missing');
      for (const [url, code] of [
        ['ftp://x.test/', 'webhooks.url_invalid'],
        ['https://u:p@x.test/', 'webhooks.url_invalid'],
        ['not a url', 'webhooks.url_invalid'],
      ] as const) {
        const bad = await h.call(o.key, 'POST', '/webhooks', { url });
        assert.equal(bad.status, 422, url);
        assert.equal(bad.body.code, code);
      }
      const badType = await h.call(o.key, 'POST', '/webhooks', { url: 'https://x.test/', types: ['order.exploded'] });
      assert.equal(badType.status, 422);
      assert.equal(await countRows(h, 'webhook_endpoints'), before, 'the refusals created nothing');

      const other = await seedOrg(h, { scopes: SCOPES });
      assert.equal((await h.call(other.key, 'GET', `/webhooks/${r.body.data.id}`)).status, 404, 'another organization does not see it');
      assert.equal((await h.call(other.key, 'DELETE', `/webhooks/${r.body.data.id}`)).status, 404);
      assert.equal((await h.call(o.key, 'DELETE', `/webhooks/${r.body.data.id}`)).status, 200);
      assert.equal((await h.call(o.key, 'GET', '/webhooks')).body.data.length, 0);
      const trail = await h.op('GET', `/audit?subjectId=${r.body.data.id}`);
      const acts = (trail.body.data as Array<{ action: string; actor: string; before: unknown; after: unknown }>)
        .map((a) => [a.action, a.actor])
        .sort();
      assert.deepEqual(
        acts,
        [
          ['webhook.created', `key:${o.keyId}`],
          ['webhook.deleted', `key:${o.keyId}`],
        ],
        'registration and deletion are audited with the key that made them, once each',
      );
      assert.ok(trail.raw.includes('https://hooks.example.test/in'));
      assert.ok(!trail.raw.includes(r.body.data.secret.slice(6)), 'the audit trail never holds the secret');
    });

    test('at most 16 endpoints per organization, also when two registrations race for the last place', async () => {
      const o = await seedOrg(h, { scopes: SCOPES });
      for (let i = 0; i < 15; i++) await register(h, o, `https://hooks.example.test/${i}`);
      const [a, b] = await Promise.all(
        [0, 1].map((i) => h.call(o.key, 'POST', '/webhooks', { url: `https://hooks.example.test/race-${i}` })),
      );
      assert.deepEqual([a!.status, b!.status].sort(), [201, 409]);
      assert.equal([a, b].find((r) => r!.status === 409)!.body.code, 'webhooks.too_many');
      assert.equal((await h.call(o.key, 'GET', '/webhooks')).body.data.length, 16);
      const refused = await h.call(o.key, 'POST', '/webhooks', { url: 'https://hooks.example.test/17' });
      assert.equal(refused.status, 409);
      assert.equal((await h.call(o.key, 'GET', '/webhooks')).body.data.length, 16, 'the refusal created nothing');
      const other = await seedOrg(h, { scopes: SCOPES });
      assert.equal((await h.call(other.key, 'POST', '/webhooks', { url: 'https://hooks.example.test/x' })).status, 201, 'per organization');
    });

    test('a loopback receiver verifies every signature with standardwebhooks; the body is the event as GET /events shows it; types filter', async () => {
      const rx = await startReceiver();
      try {
        const o = await seedOrg(h, { scopes: SCOPES });
        const all = await register(h, o, rx.url);
        const none = await register(h, o, `${rx.url}?only=orders`, ['order.completed']);
        const ids = [await emit(h, o), await emit(h, o), await emit(h, o)];
        assert.equal(await run(h), 3);
        assert.equal(await run(h), 0, 'each delivered once');
        assert.equal(rx.received.length, 3);
        await eventsSettled(h, o.orgId);
        const events = (await h.call(o.key, 'GET', '/events')).body.data as Array<{ id: string }>;
        for (const r of rx.received) {
          const verified = new Webhook(all.secret).verify(r.body, headersOf(r)) as { id: string; type: string; data: { id: string } };
          assert.equal(verified.type, 'destination.registered');
          assert.equal(r.id, verified.id, 'webhook-id is the event id');
          assert.deepEqual(
            JSON.parse(r.body),
            events.find((e) => e.id === r.id),
          );
          assert.throws(() => new Webhook(none.secret).verify(r.body, headersOf(r)), "another endpoint's secret does not verify");
          assert.equal(r.headers['content-type'], 'application/json');
        }
        assert.deepEqual(rx.received.map((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id).sort(), [...ids].sort());
        const log = await deliveries(h, o, all.id);
        assert.deepEqual(
          log.map((d) => [d.state, d.attempts, d.lastStatusCode]),
          [
            ['delivered', 1, 200],
            ['delivered', 1, 200],
            ['delivered', 1, 200],
          ],
        );
        assert.equal((await deliveries(h, o, none.id)).length, 0, 'a type it does not take is not sent');
      } finally {
        await rx.close();
      }
    });

    test('a receiver answering 500 then 200 gets the same webhook-id twice, after the backoff; replay sends it again', async () => {
      const rx = await startReceiver((_r, n) => (n === 1 ? 500 : 200));
      try {
        const o = await seedOrg(h, { scopes: SCOPES });
        const w = await register(h, o, rx.url);
        await emit(h, o);
        assert.equal(await run(h), 1);
        let [d] = await deliveries(h, o, w.id);
        assert.equal(d!.state, 'pending');
        assert.equal(d!.lastStatusCode, 500);
        assert.equal(Date.parse(d!.nextAttemptAt!) - clockOf(h).now().getTime(), 30_000, 'first retry after 30 s');
        clockOf(h).advance(29_000);
        assert.equal(await run(h), 0, 'not before its time');
        clockOf(h).advance(1_000);
        assert.equal(await run(h), 1);
        assert.equal(rx.received.length, 2);
        assert.equal(rx.received[0]!.id, rx.received[1]!.id, 'the same webhook-id on the retry');
        for (const r of rx.received) new Webhook(w.secret).verify(r.body, headersOf(r));
        [d] = await deliveries(h, o, w.id);
        assert.equal(d!.state, 'delivered');
        assert.deepEqual(
          d!.log.map((a) => [a.attempt, a.statusCode]),
          [
            [1, 500],
            [2, 200],
          ],
        );

        const replay = await h.call(o.key, 'POST', `/webhooks/${w.id}/deliveries/${d!.eventId}/replay`);
        assert.equal(replay.status, 200, replay.raw);
        assert.equal(await run(h), 1);
        assert.equal(rx.received.length, 3);
        assert.equal(rx.received[2]!.id, d!.eventId);

        // A refused replay (an event of another organization, an unknown endpoint) changes nothing.
        const other = await seedOrg(h, { scopes: SCOPES });
        await emit(h, other);
        await eventsSettled(h, other.orgId);
        const theirs = ((await h.call(other.key, 'GET', '/events')).body.data as Array<{ id: string }>)[0]!.id;
        const before = await deliveries(h, o, w.id);
        const refused = await h.call(o.key, 'POST', `/webhooks/${w.id}/deliveries/${theirs}/replay`);
        assert.equal(refused.status, 404);
        assert.equal(refused.body.code, 'webhooks.event_not_found');
        assert.equal((await h.call(o.key, 'POST', `/webhooks/whk_nope/deliveries/${d!.eventId}/replay`)).body.code, 'webhooks.not_found');
        assert.deepEqual(await deliveries(h, o, w.id), before);
        assert.equal(await run(h), 0);
      } finally {
        await rx.close();
      }
    });

    test('rotation: during the overlap every attempt carries both signatures; after it only the new one', async () => {
      const rx = await startReceiver();
      try {
        const o = await seedOrg(h, { scopes: SCOPES });
        const w = await register(h, o, rx.url);
        const rot = await h.call(o.key, 'POST', `/webhooks/${w.id}/rotate-secret`);
        assert.equal(rot.status, 200, rot.raw);
        const fresh = rot.body.data.secret as string;
        assert.notEqual(fresh, w.secret);
        assert.equal(Date.parse(rot.body.data.previousSecretUntil) - clockOf(h).now().getTime(), 24 * HOUR);
        const rotated = await h.op('GET', `/audit?subjectId=${w.id}&action=webhook.secret_rotated`);
        assert.equal(rotated.body.data.length, 1, rotated.raw);
        assert.equal(rotated.body.data[0].after.previousSecretUntil, rot.body.data.previousSecretUntil);
        assert.ok(!rotated.raw.includes(fresh.slice(6)) && !rotated.raw.includes(w.secret.slice(6)), 'no secret in the audit trail');
        await emit(h, o);
        assert.equal(await run(h), 1);
        const r = rx.received[0]!;
        const sigs = String(r.headers['webhook-signature']).split(' ');
        assert.equal(sigs.length, 2);
        for (const s of sigs) assert.match(s, /^v1,[A-Za-z0-9+/]+=*$/);
        new Webhook(fresh).verify(r.body, headersOf(r));
        new Webhook(w.secret).verify(r.body, headersOf(r));
        clockOf(h).advance(24 * HOUR + 1);
        await emit(h, o);
        assert.equal(await run(h), 1);
        const late = rx.received[1]!;
        assert.equal(String(late.headers['webhook-signature']).split(' ').length, 1);
        new Webhook(fresh).verify(late.body, headersOf(late));
        assert.throws(() => new Webhook(w.secret).verify(late.body, headersOf(late)));
      } finally {
        await rx.close();
      }
    });

    test('failing for three days: retried with exponential backoff, then the endpoint is disabled and the organization told', async () => {
      const rx = await startReceiver((r) => (r.body.includes('"webhook.disabled"') ? 200 : 503));
      try {
        const o = await seedOrg(h, { scopes: SCOPES });
        const failing = await register(h, o, rx.url, ['destination.registered']);
        const watcher = await register(h, o, `${rx.url}?watch`, ['webhook.disabled']);
        await emit(h, o);
        const start = clockOf(h).now().getTime();
        const waits: number[] = [];
        for (let i = 0; i < 40; i++) {
          assert.equal(await run(h), 1);
          const [d] = await deliveries(h, o, failing.id);
          if (d!.state !== 'pending') break;
          const wait = Date.parse(d!.nextAttemptAt!) - clockOf(h).now().getTime();
          waits.push(wait);
          clockOf(h).advance(wait);
        }
        assert.deepEqual(waits.slice(0, 5), [30_000, 60_000, 120_000, 240_000, 480_000], 'doubling');
        assert.equal(Math.max(...waits), 12 * HOUR, 'capped at 12 h');
        const total = clockOf(h).now().getTime() - start;
        assert.ok(total > 72 * HOUR && total < 80 * HOUR, `about three days (${total / HOUR} h)`);
        const [d] = await deliveries(h, o, failing.id);
        assert.equal(d!.state, 'failed');
        assert.equal(d!.attempts, 17);
        assert.ok(d!.log.every((a) => a.statusCode === 503));
        const e = (await h.call(o.key, 'GET', `/webhooks/${failing.id}`)).body.data;
        assert.equal(e.status, 'disabled');
        assert.match(e.disabledReason, /failing since/);
        await eventsSettled(h, o.orgId);
        const told = (
          (await h.call(o.key, 'GET', '/events')).body.data as Array<{ type: string; data: { id: string; status: string } }>
        ).filter((x) => x.type === 'webhook.disabled');
        assert.deepEqual(
          told.map((x) => [x.data.id, x.data.status]),
          [[failing.id, 'disabled']],
        );
        assert.equal(await run(h), 1, 'the other endpoint is sent webhook.disabled');
        const last = rx.received.at(-1)!;
        assert.equal((new Webhook(watcher.secret).verify(last.body, headersOf(last)) as { type: string }).type, 'webhook.disabled');
        const audit = await h.op('GET', `/audit?subjectId=${failing.id}`);
        assert.ok(
          (audit.body.data as Array<{ action: string }>).some((a) => a.action === 'webhook.disabled'),
          audit.raw,
        );

        // Disabled: new events are not sent to it; enabling it again sends what is pending.
        const sent = rx.received.length;
        await emit(h, o);
        assert.equal(await run(h), 0);
        assert.equal(rx.received.length, sent);
        const on = await h.call(o.key, 'POST', `/webhooks/${failing.id}/enable`);
        assert.equal(on.body.data.status, 'enabled');
        const enabled = (await h.op('GET', `/audit?subjectId=${failing.id}&action=webhook.enabled`)).body.data as Array<{
          actor: string;
          before: { status: string };
          after: { status: string };
        }>;
        assert.deepEqual(
          enabled.map((a) => [a.actor, a.before.status, a.after.status]),
          [[`key:${o.keyId}`, 'disabled', 'enabled']],
          'enabling it is audited, with who did it',
        );
      } finally {
        await rx.close();
      }
    });

    test('an attempt that cannot be signed is a logged failure, retried; finished deliveries are purged after 30 days, pending ones kept', async () => {
      const rx = await startReceiver();
      try {
        const o = await seedOrg(h, { scopes: SCOPES });
        const broken = await register(h, o, rx.url);
        const fine = await register(h, o, `${rx.url}?fine`);
        await h.store.db
          .updateTable('webhook_endpoints')
          .set({ secret_sealed: 'w1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })
          .where('id', '=', broken.id)
          .execute();
        await emit(h, o);
        assert.equal(await run(h), 2);
        assert.equal(rx.received.length, 1, 'only the endpoint whose secret opens');
        new Webhook(fine.secret).verify(rx.received[0]!.body, headersOf(rx.received[0]!));
        const [d] = await deliveries(h, o, broken.id);
        assert.equal(d!.state, 'pending');
        assert.match(d!.lastError!, /^not sent: /);
        assert.deepEqual(
          d!.log.map((a) => [a.attempt, a.statusCode]),
          [[1, null]],
        );

        const purge = backgroundTasks.find((t) => t.name === 'purge-webhook-deliveries')!;
        clockOf(h).advance(30 * 24 * HOUR - 1000);
        await purge.run(h.deps);
        assert.equal((await deliveries(h, o, fine.id)).length, 1, 'kept for 30 days');
        clockOf(h).advance(2000);
        await purge.run(h.deps);
        assert.equal((await deliveries(h, o, fine.id)).length, 0, 'then forgotten');
        assert.equal((await deliveries(h, o, broken.id)).length, 1, 'a pending delivery is never purged');
        assert.equal((await h.call(o.key, 'DELETE', `/webhooks/${broken.id}`)).status, 200);
        assert.equal(await run(h), 0, 'deleted: its pending delivery went with it');
      } finally {
        await rx.close();
      }
    });

    test('two workers at once never make one attempt twice (race)', async () => {
      const rx = await startReceiver();
      const second =
        backend === 'postgres' ? await makeHarness({ backend, manualClock: true, storage: { databaseUrl: h.config.databaseUrl! } }) : h;
      try {
        const o = await seedOrg(h, { scopes: SCOPES });
        const w = await register(h, o, rx.url);
        for (let i = 0; i < 12; i++) await emit(h, o);
        if (second !== h) clockOf(second).set(clockOf(h).now());
        const drain = async (x: Harness) => {
          let n = 0;
          for (let k; (k = await deliverDueWebhooks(x.deps, { sender: webhookSenderOf(x.deps), batch: 3 })) > 0;) n += k;
          return n;
        };
        const [a, b] = await Promise.all([drain(h), drain(second)]);
        assert.equal(a + b, 12, `attempts made: ${a} + ${b}`);
        const ids = rx.received.map((r) => r.id);
        assert.equal(ids.length, 12);
        assert.equal(new Set(ids).size, 12, 'no webhook-id twice');
        const log = await deliveries(h, o, w.id);
        assert.deepEqual(
          log.map((d) => [d.state, d.attempts]),
          Array(12).fill(['delivered', 1]),
        );
      } finally {
        await rx.close();
        if (second !== h) await second.close();
      }
    });
  });

  describe(`webhooks: a restart mid-delivery loses nothing [${backend}]`, () => {
    test('the worker is stopped between claim and completion; a new instance on the same store delivers it', async () => {
      const rx = await startReceiver((_r, n) => (n === 1 ? 'hang' : 200));
      const dir = mkdtempSync(join(tmpdir(), 'cambio-webhooks-'));
      const pg = backend === 'postgres' ? await createPgDatabase() : null;
      const storage = pg ? { databaseUrl: pg.url } : { dataDir: dir };
      try {
        const a = await makeHarness({ backend, manualClock: true, storage });
        await listAssets(a, { USD: 2 });
        const o = await seedOrg(a, { scopes: SCOPES });
        const w = await register(a, o, rx.url);
        await emit(a, o);
        const arrived = rx.next();
        const inFlight = run(a);
        await arrived;
        await a.close(); // the instance goes away with the attempt unanswered
        rx.dropHeld();
        await inFlight.catch(() => {});

        const b = await makeHarness({ backend, manualClock: true, storage });
        try {
          clockOf(b).set(new Date(Math.max(clockOf(b).now().getTime(), Date.now())));
          assert.equal(await run(b), 0, 'claimed by the stopped instance until its lease ends');
          clockOf(b).advance(61_000);
          assert.equal(await run(b), 1);
          assert.equal(rx.received.length, 2);
          assert.equal(rx.received[0]!.id, rx.received[1]!.id, 'the same event, the same webhook-id');
          new Webhook(w.secret).verify(rx.received[1]!.body, headersOf(rx.received[1]!));
          const [d] = await deliveries(b, o, w.id);
          assert.equal(d!.state, 'delivered');
          assert.equal(d!.attempts, 2);
          assert.equal(await run(b), 0);
        } finally {
          await b.close();
        }
      } finally {
        await rx.close();
        await pg?.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe(`webhooks in production: private addresses refused, checked again at delivery [${backend}]`, () => {
    let h: Harness;
    let answer = '93.184.216.34'; // what hooks.example.test resolves to; every other name is private
    before(async () => {
      h = await makeHarness({
        backend: backend as Backend,
        manualClock: true,
        env: { CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET },
        deps: {
          webhookResolve: async (host) =>
            host === 'hooks.example.test' ? [{ address: answer, family: 4 }] : [{ address: '10.1.2.3', family: 4 }],
        },
      });
    });
    after(async () => h?.close());

    test('a url on a loopback, private or link-local address is refused at registration; a name that later resolves to one is refused at delivery', async () => {
      const rx = await startReceiver();
      try {
        const o = await seedOrg(h, { scopes: SCOPES });
        const before = await countRows(h, 'webhook_endpoints');
        for (const url of [
          rx.url,
          'http://[::1]:9/x',
          'http://169.254.169.254/latest/meta-data',
          'http://internal.example.test/',
          'http://[::ffff:127.0.0.1]/',
          'http://[::127.0.0.1]/',
          'http://[::ffff:0:127.0.0.1]/',
          'http://[2002:7f00:1::]/',
          'http://[64:ff9b:1::a00:1]/',
        ]) {
          const r = await h.call(o.key, 'POST', '/webhooks', { url });
          assert.equal(r.status, 422, `${url}: ${r.raw}`);
          assert.equal(r.body.code, 'webhooks.url_refused');
        }
        assert.equal(await countRows(h, 'webhook_endpoints'), before, 'nothing created');

        const w = await register(h, o, `http://hooks.example.test:${rx.port}/hooks`);
        answer = '127.0.0.1'; // DNS rebinding: the name now points at the loopback receiver
        await sql`insert into events (organization_id, type, subject_id, data, created_at) values (${o.orgId}, 'destination.registered', 'dst_x', '{"id":"dst_x"}'::jsonb, ${clockOf(h).now()})`.execute(
          h.store.db,
        );
        assert.equal(await run(h), 1);
        assert.equal(rx.received.length, 0, 'never reached');
        const [d] = await deliveries(h, o, w.id);
        assert.equal(d!.state, 'pending');
        assert.equal(d!.lastStatusCode, null);
        assert.equal(d!.lastError, 'address not allowed');
      } finally {
        await rx.close();
      }
    });
  });
}
