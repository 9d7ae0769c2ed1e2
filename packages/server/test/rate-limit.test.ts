import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { makeHarness, type Harness } from './harness.ts';

async function redisUp(url: string): Promise<boolean> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await r.connect();
    await r.ping();
    return true;
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

const hit = (h: Harness) => h.app.inject({ method: 'GET', url: '/api/v1/client', headers: { 'x-lang': 'en' } });

describe('rate limit per client address', () => {
  test('past the limit: 429 in the envelope with Retry-After', async () => {
    const h = await makeHarness({ env: { CAMBIO_RATE_LIMIT_PER_MIN: '3' } });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await hit(h)).statusCode, 401);
      const r = await hit(h);
      assert.equal(r.statusCode, 429);
      assert.equal(r.json().code, 'rate_limit.exceeded');
      assert.equal(r.json().success, false);
      assert.equal(r.json().data, null);
      assert.ok(Number(r.headers['retry-after']) > 0);
      // the operator API is not counted against client addresses
      assert.equal((await h.app.inject({ method: 'GET', url: '/operator/v1/audit' })).statusCode, 401);
    } finally {
      await h.close();
    }
  });

  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const ci = process.env.CI === 'true' || process.env.CI === '1';
  test('with Redis, two instances share one budget', async (t) => {
    if (!(await redisUp(url))) {
      // CI provides Redis: there its absence fails the test, since the limits instances share would go unexercised.
      assert.ok(!ci, `CI=true but no Redis answers at ${url}`);
      t.skip(`no Redis at ${url}`);
      return;
    }
    // a fresh namespace per run: tests never depend on counters left by an earlier one
    const ns = randomBytes(4).toString('hex');
    const mk = () => makeHarness({ env: { CAMBIO_RATE_LIMIT_PER_MIN: '4' } });
    const a = await mk();
    const b = await mk();
    const ra = new Redis(url, { keyPrefix: ns });
    const rb = new Redis(url, { keyPrefix: ns });
    try {
      await a.app.close();
      await b.app.close();
      const { buildApp } = await import('../src/app.ts');
      const appA = await buildApp({ ...a.deps, redis: ra });
      const appB = await buildApp({ ...b.deps, redis: rb });
      const codes: number[] = [];
      for (const app of [appA, appB, appA, appB, appA, appB])
        codes.push((await app.inject({ method: 'GET', url: '/api/v1/client' })).statusCode);
      assert.deepEqual(codes, [401, 401, 401, 401, 429, 429]);
      await appA.close();
      await appB.close();
    } finally {
      await a.store.close();
      await b.store.close();
      ra.disconnect();
      rb.disconnect();
    }
  });
});
