import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { backends, createPgDatabase, listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';

/**
 * Authenticated keys are kept between requests (store/auth-cache.ts), and every rule still applies on the
 * very next request after a change: each test first has the key kept (it is then served without a read),
 * makes the change, and expects the next request to be refused.
 */

/** Resolves at the next notification `h` hears, of `what` if given (subscribe before making the change). */
function nextChange(h: Harness, what?: string): Promise<void> {
  return new Promise((resolve) => {
    const off = h.authChanges!.subscribe({
      changed: (w) => {
        if (what === undefined || w === what) {
          off();
          resolve();
        }
      },
      hearing: () => {},
    });
  });
}

/**
 * Resolves once `to` has heard every change committed through `from` so far: PostgreSQL delivers
 * notifications in commit order, so hearing a marker sent now means hearing everything before it.
 */
async function settled(from: Harness, to: Harness): Promise<void> {
  const marker = `marker-${Math.random().toString(36).slice(2)}`;
  const heard = nextChange(to, marker);
  await sql`select pg_notify('cambio_auth', ${marker})`.execute(from.store.db);
  await heard;
}

/** Resolves when `h`'s listening connection is reported down (false) or back (true). */
function hearing(h: Harness, live: boolean): Promise<void> {
  return new Promise((resolve) => {
    const off = h.authChanges!.subscribe({
      changed: () => {},
      hearing: (l) => {
        if (l === live) {
          off();
          resolve();
        }
      },
    });
  });
}

/** The key (not kept yet) answers and is kept: the cache holds one more key afterwards. */
async function kept(h: Harness, key: string): Promise<void> {
  const size = h.authCache!.size;
  assert.equal((await h.call(key, 'GET', '/balances')).status, 200);
  assert.equal(h.authCache!.size, size + 1, 'the key is kept after a successful request');
  assert.equal((await h.call(key, 'GET', '/balances')).status, 200);
}

const setup = async (h: Harness) => {
  await listAssets(h, { USD: 2, BTC: 8 });
};

for (const backend of backends()) {
  describe(`the auth cache applies every change on the next request [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
      await setup(h);
    });
    after(async () => h?.close());

    test('a revoked key', async () => {
      const o = await seedOrg(h);
      await kept(h, o.key);
      assert.equal((await h.op('POST', `/api-keys/${o.keyId}/revoke`)).status, 200);
      assert.equal((await h.call(o.key, 'GET', '/balances')).status, 401);
    });

    test('a reduced role, and the role given back', async () => {
      const o = await seedOrg(h);
      await kept(h, o.key);
      assert.equal((await h.op('PATCH', `/members/${o.memberId}`, { permissions: ['portal:trade'] })).status, 200);
      const r = await h.call(o.key, 'GET', '/balances');
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'auth.scope_missing');
      assert.equal((await h.op('PATCH', `/members/${o.memberId}`, { permissions: ['portal:read', 'portal:trade'] })).status, 200);
      assert.equal((await h.call(o.key, 'GET', '/balances')).status, 200);
    });

    test('a suspended organization', async () => {
      const o = await seedOrg(h);
      await kept(h, o.key);
      assert.equal((await h.call(o.key, 'GET', '/deposits/wallets')).status, 200);
      assert.equal((await h.op('PATCH', `/organizations/${o.orgId}`, { status: 'suspended' })).status, 200);
      const r = await h.call(o.key, 'GET', '/deposits/wallets');
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'clients.client_cannot_operate');
    });

    test('the reconciliation stop, and its resolution', async () => {
      const o = await seedOrg(h);
      await kept(h, o.key);
      // Before the stop an empty order is refused for its body; after it, for the stop.
      assert.notEqual((await h.call(o.key, 'POST', '/orders', {})).status, 409);
      const run = await h.op('POST', '/reconciliation/run', { marketBalances: [{ assetSymbol: 'USD', amountMinor: '1' }] });
      assert.equal(run.status, 200, run.raw);
      assert.equal(run.body.data.reconciled, false);
      const r = await h.call(o.key, 'POST', '/orders', {});
      assert.equal(r.status, 409);
      assert.equal(r.body.code, 'ledger.ledger_not_reconciled');
      assert.equal((await h.op('POST', '/reconciliation/resolve')).status, 200);
      assert.notEqual((await h.call(o.key, 'POST', '/orders', {})).status, 409);
    });

    test('a wrong secret is refused though the key is kept', async () => {
      const o = await seedOrg(h);
      await kept(h, o.key);
      const wrong = `${o.key.slice(0, -1)}${o.key.endsWith('A') ? 'B' : 'A'}`;
      assert.equal((await h.call(wrong, 'GET', '/balances')).status, 401);
      assert.equal((await h.call(o.key, 'GET', '/balances')).status, 200);
    });

    test('a kept key is found by the digest of its secret, without its keyed hash; a wrong secret still pays it', async () => {
      const o = await seedOrg(h);
      await kept(h, o.key);
      const realHmac = crypto.createHmac;
      let hmacs = 0;
      crypto.createHmac = ((...args: Parameters<typeof crypto.createHmac>) => {
        hmacs++;
        return realHmac(...args);
      }) as typeof crypto.createHmac;
      syncBuiltinESMExports();
      try {
        assert.equal((await h.call(o.key, 'GET', '/balances')).status, 200);
        assert.equal(hmacs, 0, 'the kept key was not hashed again');
        const wrong = `${o.key.slice(0, -1)}${o.key.endsWith('A') ? 'B' : 'A'}`;
        assert.equal((await h.call(wrong, 'GET', '/balances')).status, 401);
        assert.equal(hmacs, 1, 'a secret never kept is hashed and compared');
      } finally {
        crypto.createHmac = realHmac;
        syncBuiltinESMExports();
      }
    });

    test('a last-use write is not a change: the cache keeps its keys', async () => {
      const o = await seedOrg(h);
      await kept(h, o.key);
      const size = h.authCache!.size;
      await h.store.keys.flushLastUsed();
      assert.equal(h.authCache!.size, size);
    });
  });
}

if (backends().includes('postgres')) {
  describe('two instances on one PostgreSQL database', () => {
    let a: Harness;
    let b: Harness;
    let drop: () => Promise<void>;
    before(async () => {
      const db = await createPgDatabase();
      drop = db.drop;
      a = await makeHarness({ backend: 'postgres', storage: { databaseUrl: db.url } });
      b = await makeHarness({ backend: 'postgres', storage: { databaseUrl: db.url } });
      await setup(a);
    });
    after(async () => {
      await a?.close();
      await b?.close();
      await drop?.();
    });

    test('a change made through one is refused on the other once it is notified', async () => {
      const o = await seedOrg(a);
      await settled(a, b);
      await kept(b, o.key);

      let heard = nextChange(b);
      assert.equal((await a.op('PATCH', `/members/${o.memberId}`, { permissions: ['portal:trade'] })).status, 200);
      await heard;
      assert.equal((await b.call(o.key, 'GET', '/balances')).status, 403);

      heard = nextChange(b);
      assert.equal((await a.op('PATCH', `/members/${o.memberId}`, { permissions: ['portal:read', 'portal:trade'] })).status, 200);
      await heard;
      await kept(b, o.key);
      heard = nextChange(b);
      assert.equal((await a.op('PATCH', `/organizations/${o.orgId}`, { status: 'suspended' })).status, 200);
      await heard;
      assert.equal((await b.call(o.key, 'GET', '/deposits/wallets')).status, 403);

      const o2 = await seedOrg(a);
      await settled(a, b);
      await kept(b, o2.key);
      heard = nextChange(b);
      assert.equal(
        (await a.op('POST', '/reconciliation/run', { marketBalances: [{ assetSymbol: 'USD', amountMinor: '1' }] })).body.data.reconciled,
        false,
      );
      await heard;
      assert.equal((await b.call(o2.key, 'POST', '/orders', {})).status, 409);
      heard = nextChange(b);
      assert.equal((await a.op('POST', '/reconciliation/resolve')).status, 200);
      await heard;

      await kept(b, o2.key);
      heard = nextChange(b);
      assert.equal((await a.op('POST', `/api-keys/${o2.keyId}/revoke`)).status, 200);
      await heard;
      assert.equal((await b.call(o2.key, 'GET', '/balances')).status, 401);
    });
  });

  describe('the listening connection', () => {
    const endListener = (h: Harness) =>
      sql`select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = 'cambio-auth-listener' and datname = current_database()`.execute(h.store.db);
    const revokeUnnotified = async (h: Harness, keyId: string) => {
      // Behind the triggers' back: no notification at all (what the TTL is the backstop for).
      await sql`alter table api_keys disable trigger api_keys_auth_changed`.execute(h.store.db);
      try {
        await sql`update api_keys set revoked_at = now() where id = ${keyId}`.execute(h.store.db);
      } finally {
        await sql`alter table api_keys enable trigger api_keys_auth_changed`.execute(h.store.db);
      }
    };

    test('while it is down nothing is served from the cache nor kept in it', async () => {
      const h = await makeHarness({ backend: 'postgres', authListenRetryMs: 600_000 });
      try {
        // With the listener up, a change nobody notifies is not seen: the key is served from the cache.
        const control = await seedOrg(h);
        await kept(h, control.key);
        await revokeUnnotified(h, control.keyId);
        assert.equal((await h.call(control.key, 'GET', '/balances')).status, 200);

        const o = await seedOrg(h);
        await kept(h, o.key);
        const down = hearing(h, false);
        await endListener(h);
        await down;
        assert.equal(h.authCache!.size, 0);
        assert.equal((await h.call(o.key, 'GET', '/balances')).status, 200);
        assert.equal(h.authCache!.size, 0, 'nothing is kept while changes cannot be heard');
        await revokeUnnotified(h, o.keyId);
        assert.equal((await h.call(o.key, 'GET', '/balances')).status, 401);
        assert.equal((await h.call(control.key, 'GET', '/balances')).status, 401);
      } finally {
        await h.close();
      }
    });

    test('once it is back, keys are kept again and changes are heard', async () => {
      const h = await makeHarness({ backend: 'postgres', authListenRetryMs: 20 });
      try {
        const o = await seedOrg(h);
        await kept(h, o.key);
        const down = hearing(h, false);
        const back = hearing(h, true);
        await endListener(h);
        await down;
        await back;
        await kept(h, o.key);
        assert.equal((await h.op('POST', `/api-keys/${o.keyId}/revoke`)).status, 200);
        assert.equal((await h.call(o.key, 'GET', '/balances')).status, 401);
      } finally {
        await h.close();
      }
    });
  });
}

for (const backend of backends()) {
  describe(`CAMBIO_AUTH_CACHE_TTL_MS=0: no cache, every request reads its key [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend, env: { CAMBIO_AUTH_CACHE_TTL_MS: '0' } });
      await setup(h);
    });
    after(async () => h?.close());

    test('a change nobody notifies applies at once', async () => {
      const o = await seedOrg(h);
      assert.equal(h.authCache, null);
      assert.equal((await h.call(o.key, 'GET', '/balances')).status, 200);
      await sql`alter table api_keys disable trigger api_keys_auth_changed`.execute(h.store.db);
      await sql`update api_keys set revoked_at = now() where id = ${o.keyId}`.execute(h.store.db);
      await sql`alter table api_keys enable trigger api_keys_auth_changed`.execute(h.store.db);
      assert.equal((await h.call(o.key, 'GET', '/balances')).status, 401);
    });
  });
}
