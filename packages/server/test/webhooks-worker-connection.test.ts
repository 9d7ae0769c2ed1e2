import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pg from 'pg';
import { callJson, childService, until, type ChildService } from './child-service.ts';
import { backends } from './harness.ts';
import { startReceiver } from './webhook-receiver.ts';

/** A declaration expires at once, so the organization's next one is not refused as one already open. */
const ONE_DECLARATION_AT_A_TIME = { CAMBIO_DECLARATION_TTL_MS: '1' };

/** A declaration, answered: its id is what the `declaration.created` event it writes carries. */
async function declare(s: ChildService, amountMinor: string): Promise<string> {
  const r = await callJson(s, 'POST', '/api/v1/deposits/declarations', {
    assetSymbol: 'USD',
    assetDecimals: 2,
    declaredAmountMinor: amountMinor,
  });
  assert.equal(r.status, 201, r.raw);
  return r.data.id as string;
}

/** The `data.id` of every event the receiver got, in arrival order. */
const arrivedIds = (bodies: Array<{ body: string }>) => bodies.map((b) => (JSON.parse(b.body) as { data: { id: string } }).data.id);

/**
 * On PostgreSQL the delivery worker holds one pooled connection for its claims and outcomes while it
 * runs (the service as `npm start` runs it, a child process). Two ways that could go wrong: with a pool of
 * one, holding it would leave no connection for any request; and a held connection the database drops (a
 * failover, a restart, an administrator ending it) must end only that run, the next one taking a fresh
 * connection and delivering what was written since.
 */
if (backends().includes('postgres')) {
  describe('the webhook worker and its connection (postgres)', () => {
    test('DB_POOL_SIZE=1: the worker delivers and every request is still answered', { timeout: 90_000 }, async () => {
      const s = await childService('postgres', { DB_POOL_SIZE: '1', ...ONE_DECLARATION_AT_A_TIME });
      const rx = await startReceiver(() => 204);
      try {
        const hook = await callJson(s, 'POST', '/api/v1/webhooks', { url: rx.url, types: ['declaration.created'] });
        assert.equal(hook.status, 201, hook.raw);
        const first = await declare(s, '100000');
        await until(async () => (rx.received.length >= 1 ? true : undefined));
        // The worker is running now (it stays until the service stops): requests must still get the connection.
        const more = [await declare(s, '200000'), await declare(s, '300000')];
        const balances = await callJson(s, 'GET', '/api/v1/balances');
        assert.equal(balances.status, 200, balances.raw);
        await until(async () => (rx.received.length >= 3 ? true : undefined));
        assert.deepEqual(arrivedIds(rx.received).sort(), [first, ...more].sort(), 'each declaration delivered once');
      } finally {
        await rx.close();
        await s.cleanup();
      }
    });

    test("the database ends the worker's connection: the next run delivers what was written after", { timeout: 90_000 }, async () => {
      const s = await childService('postgres', ONE_DECLARATION_AT_A_TIME);
      const rx = await startReceiver(() => 204);
      const admin = new pg.Client({ connectionString: s.databaseUrl });
      await admin.connect();
      try {
        const hook = await callJson(s, 'POST', '/api/v1/webhooks', { url: rx.url, types: ['declaration.created'] });
        assert.equal(hook.status, 201, hook.raw);
        const before = await declare(s, '100000');
        await until(async () => (rx.received.length >= 1 ? true : undefined));

        // Every connection of the service to its database, the worker's held one among them.
        // (In the select list: a condition may be evaluated in any order, and this one must not end its own.)
        const ended = await admin.query<{ ended: boolean }>(`select pg_terminate_backend(pid) as ended from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`);
        assert.ok(ended.rows.filter((r) => r.ended).length >= 1, 'the service had connections to end');

        // The pool replaces what it lost: the service answers again (a request may meet a dead connection first).
        await until(async () => ((await callJson(s, 'GET', '/api/v1/balances')).status === 200 ? true : undefined));
        const after = await declare(s, '200000');
        await until(async () => (rx.received.length >= 2 ? true : undefined));
        assert.deepEqual(arrivedIds(rx.received), [before, after], 'the event written after the cut is delivered, once');

        const states = await until(async () => {
          const r = await callJson(s, 'GET', `/api/v1/webhooks/${hook.data.id}/deliveries`);
          assert.equal(r.status, 200, r.raw);
          const st = (r.data as Array<{ state: string }>).map((d) => d.state);
          return st.length === 2 && st.every((x) => x === 'delivered') ? st : undefined;
        });
        assert.deepEqual(states, ['delivered', 'delivered']);
      } finally {
        await admin.end();
        await rx.close();
        await s.cleanup();
      }
    });
  });
}
