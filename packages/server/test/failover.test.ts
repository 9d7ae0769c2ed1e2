import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import {
  available,
  backends,
  btcUsdMarket,
  createPgDatabase,
  held,
  listAssets,
  makeHarness,
  OPERATOR_TOKEN,
  seedOrg,
  type Harness,
  type Res,
  type SeededOrg,
} from './harness.ts';
import { closedPort, FaultProxy } from './fault-proxy.ts';

/** Readiness and liveness on every store: /ready reads the store, /health never does. */
for (const backend of backends()) {
  test(`GET /ready answers 200 while the store answers, as /health does [${backend}]`, async () => {
    const h = await makeHarness({ backend });
    try {
      const ready = await h.app.inject({ method: 'GET', url: '/ready' });
      assert.equal(ready.statusCode, 200);
      assert.equal(ready.json().data.status, 'ready');
      assert.equal((await h.app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
    } finally {
      await h.close();
    }
  });
}

/**
 * The pool over several hosts (store/failover-pool.ts), against the local PostgreSQL behind fault-injecting
 * proxies: a host nothing listens on, a host whose sessions are read-only (as a standby's are) and the
 * primary. The primary is cut, the standby-like host is promoted, then demoted again while the first comes back.
 */
if (process.env.DATABASE_URL) {
  describe('losing the primary [postgres, several hosts]', () => {
    let h: Harness;
    let drop: () => Promise<void>;
    let primary: FaultProxy;
    let standby: FaultProxy;
    let org: SeededOrg;

    before(async () => {
      const pg = await createPgDatabase();
      drop = pg.drop;
      const u = new URL(pg.url);
      const target = { host: u.hostname, port: Number(u.port || 5432) };
      primary = await FaultProxy.start(target);
      standby = await FaultProxy.start(target, { readOnly: true });
      const hosts = [`127.0.0.1:${await closedPort()}`, `127.0.0.1:${standby.port}`, `127.0.0.1:${primary.port}`];
      const url = `postgres://${u.username}${u.password ? `:${u.password}` : ''}@${hosts.join(',')}${u.pathname}?target_session_attrs=read-write`;
      h = await makeHarness({ backend: 'postgres', storage: { databaseUrl: url } });
      await btcUsdMarket(h);
      org = await seedOrg(h, { balances: { BTC: 100_000_000n, USD: 1_000_000n } });
    });
    after(async () => {
      await h?.close();
      await primary?.close();
      await standby?.close();
      await drop?.();
    });

    const quote = async () => {
      const q = await h.call(org.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
      assert.equal(q.status, 201, q.raw);
      return String(q.body.data.id);
    };
    const order = (quoteId: string, key: string) => h.call(org.key, 'POST', '/orders', { quoteId }, { 'idempotency-key': key });
    const orderCount = async () =>
      Number(
        (await sql<{ n: string }>`select count(*)::text as n from orders where organization_id = ${org.orgId}`.execute(h.store.db)).rows[0]!
          .n,
      );
    /** Waits (bounded) until the readiness endpoint says the store answers again. */
    const readyAgain = async () => {
      for (let i = 0; i < 100; i++) {
        if ((await h.app.inject({ method: 'GET', url: '/ready' })).statusCode === 200) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.fail('the store did not answer again');
    };
    const unavailable = (r: Res) => {
      assert.equal(r.status, 503, r.raw);
      assert.equal(r.body.code, 'store.unavailable');
      assert.ok(Number(r.headers['retry-after']) > 0, 'Retry-After is set');
    };

    test('only the writable host is used: the closed port and the read-only host are passed over, and nothing is written to the read-only one', async () => {
      const r = await order(await quote(), 'before-1');
      assert.equal(r.status, 201, r.raw);
      assert.ok(standby.sessions > 0, 'the read-only host was tried');
      assert.equal(standby.wrote, false);
    });

    let during: string;
    test('while no host is writable: 503 store.unavailable with Retry-After, never 500, no hold taken; readiness fails, liveness holds', async () => {
      during = await quote();
      const heldBefore = await held(h, org.key, 'BTC');
      primary.cut();
      unavailable(await order(during, 'during-1'));
      unavailable(await h.call(org.key, 'GET', '/balances'));
      unavailable(await h.call(org.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' }));
      unavailable(await h.op('GET', '/organizations?limit=5'));
      const ready = await h.app.inject({ method: 'GET', url: '/ready' });
      assert.equal(ready.statusCode, 503);
      assert.equal(ready.json().code, 'store.unavailable');
      assert.equal((await h.app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
      assert.equal(standby.wrote, false, 'the read-only host was not written to');
      // The standby is promoted: the same app follows it without a restart.
      standby.readOnly = false;
      await readyAgain();
      assert.equal(await held(h, org.key, 'BTC'), heldBefore, 'the refused order took no hold');
    });

    test('after the failover the same app answers 2xx, and a retried Idempotency-Key lands once', async () => {
      const again = await order(during, 'during-1');
      assert.equal(again.status, 201, again.raw);
      const replay = await order(during, 'during-1');
      assert.equal(replay.status, 201);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.body.data.id, again.body.data.id);
      assert.equal(await orderCount(), 2);
      assert.equal(await held(h, org.key, 'BTC'), 2_000_000n);
    });

    test('the new primary demoted and the old one back: its sessions end, the pool finds the old one and never writes to the demoted one', async () => {
      standby.readOnly = true;
      standby.wrote = false;
      standby.dropConnections();
      primary.restore();
      await readyAgain();
      const r = await order(await quote(), 'after-1');
      assert.equal(r.status, 201, r.raw);
      assert.equal(standby.wrote, false);
      assert.equal(await orderCount(), 3);
      assert.equal(await held(h, org.key, 'BTC'), 3_000_000n);
    });
  });
}

/**
 * A keyed request's key is claimed by its own transaction: a write cut by a lost store before its commit
 * rolled back with its claim, so the retry runs, once, and then replays.
 */
for (const backend of backends()) {
  test(`a keyed write cut by a lost store before its commit: the retry runs once, then replays [${backend}]`, async () => {
    const h = await makeHarness({ backend });
    try {
      await listAssets(h, { USD: 2 });
      const o = await seedOrg(h);
      const adjust = (key: string) =>
        h.app.inject({
          method: 'POST',
          url: `/operator/v1/organizations/${o.orgId}/adjustments`,
          payload: { assetSymbol: 'USD', amountMinor: '500', reason: 'x' },
          headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'idempotency-key': key, 'x-lang': 'en' },
        });
      const original = h.store.accounts.adjust.bind(h.store.accounts);
      h.store.accounts.adjust = async () => {
        throw new Error('Connection terminated unexpectedly');
      };
      let cut;
      try {
        cut = await adjust('adj-1');
      } finally {
        h.store.accounts.adjust = original;
      }
      assert.equal(cut.statusCode, 503);
      assert.equal(cut.json().code, 'store.unavailable');
      assert.equal(await available(h, o.key, 'USD'), 0n);
      const retry = await adjust('adj-1');
      assert.equal(retry.statusCode, 201, retry.body);
      assert.equal(retry.headers['idempotent-replayed'], undefined);
      assert.equal((await adjust('adj-1')).headers['idempotent-replayed'], 'true');
      assert.equal(await available(h, o.key, 'USD'), 500n);
    } finally {
      await h.close();
    }
  });
}
