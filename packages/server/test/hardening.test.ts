import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { DomainError } from '../src/domain/errors.ts';
import { available, backends, listAssets, makeHarness, OPERATOR_TOKEN, seedOrg, type Harness } from './harness.ts';

const OP = { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' };

/** Sends a raw JSON text: numbers stay exactly as written (no JSON.stringify on the way). */
const raw = (app: FastifyInstance, method: string, url: string, payload: string, lang = 'en') =>
  app.inject({ method: method as 'POST', url, headers: { ...OP, 'x-lang': lang }, payload });

/** An app over the harness's store whose log lines are kept in memory. */
async function loggedApp(h: Harness): Promise<{ app: FastifyInstance; logs: string[] }> {
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const app = await buildApp({ ...h.deps, logger: pino({ level: 'info' }, stream) });
  await app.ready();
  return { app, logs };
}

describe('request bodies: nesting and parser failures', () => {
  let h: Harness;
  let logged: { app: FastifyInstance; logs: string[] };
  before(async () => {
    h = await makeHarness();
    logged = await loggedApp(h);
  });
  after(async () => {
    await logged?.app.close();
    await h?.close();
  });

  test('a deeply nested body is a 400 request.invalid_json, never a 500 with a stack in the log', async () => {
    for (const payload of ['['.repeat(60_000), `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`, '['.repeat(65) + ']'.repeat(65)]) {
      const r = await raw(logged.app, 'POST', '/operator/v1/organizations', payload);
      assert.equal(r.statusCode, 400, r.body.slice(0, 200));
      assert.equal(r.json().code, 'request.invalid_json');
    }
    assert.ok(!logged.logs.some((l) => /"level":50/.test(l)), 'nothing logged at error level');
  });

  test('nesting within the bound is parsed (and then validated)', async () => {
    const r = await raw(
      logged.app,
      'POST',
      '/operator/v1/organizations',
      `{"name":"N","limits":{"USD":${'['.repeat(60)}${']'.repeat(60)}}}`,
    );
    assert.equal(r.statusCode, 422);
    assert.equal(r.json().code, 'request.validation_failed');
  });

  test('brackets inside strings do not count as nesting', async () => {
    const r = await raw(h.app, 'POST', '/operator/v1/organizations', JSON.stringify({ name: `${'['.repeat(150)}"{`, status: 'draft' }));
    assert.equal(r.statusCode, 201, r.body);
  });

  test('every kind of unparsable body is a 400 request.invalid_json', async () => {
    for (const payload of ['{"name":"a","name":"b"}', '{"name":"a"', '{"name":"\\u0000"}', 'nul', '{"a":1}x', '"\\ud800']) {
      const r = await raw(h.app, 'POST', '/operator/v1/organizations', payload);
      assert.equal(r.statusCode, 400, `${payload}: ${r.body}`);
      assert.equal(r.json().code, 'request.invalid_json');
    }
  });
});

for (const backend of backends()) {
  describe(`JSON numbers: exact amounts, no number in a text field [${backend}]`, () => {
    let h: Harness;
    let org: Awaited<ReturnType<typeof seedOrg>>;
    before(async () => {
      h = await makeHarness({ backend });
      await listAssets(h, { USD: 2, ETH: 18 });
      org = await seedOrg(h);
    });
    after(async () => h?.close());

    test('a raw JSON integer 2^256-1 (not a string) round-trips exactly', async () => {
      const o = await seedOrg(h);
      const max = (2n ** 256n - 1n).toString();
      const r = await raw(
        h.app,
        'POST',
        `/operator/v1/organizations/${o.orgId}/adjustments`,
        `{"assetSymbol":"ETH","amountMinor":${max},"reason":"raw max"}`,
      );
      assert.equal(r.statusCode, 201, r.body);
      assert.equal(r.json().data.amountMinor, max);
      assert.equal(r.json().data.availableMinor, max);
      const b = await h.call(o.key, 'GET', '/balances');
      assert.match(b.raw, new RegExp(`"amountMinor":"${max}"`));
      // and a raw negative big integer takes it back, exactly
      const back = await raw(
        h.app,
        'POST',
        `/operator/v1/organizations/${o.orgId}/adjustments`,
        `{"assetSymbol":"ETH","amountMinor":-${max},"reason":"raw back"}`,
      );
      assert.equal(back.statusCode, 201, back.body);
      assert.equal(await available(h, o.key, 'ETH'), 0n);
    });

    test('a number where text is expected is refused: no organization named with digits', async () => {
      for (const n of ['12345678901234567890', '1e5', '1.5', '12', '-98765432109876543210']) {
        const r = await raw(h.app, 'POST', '/operator/v1/organizations', `{"name":${n}}`);
        assert.equal(r.statusCode, 422, `${n}: ${r.body}`);
        assert.equal(r.json().code, 'request.validation_failed');
        assert.match(r.json().message, /name must be text/);
      }
      const audit = await h.op('GET', '/audit?limit=100');
      assert.ok(!JSON.stringify(audit.body.data).includes('12345678901234567890'), 'nothing was created');
    });

    test('a fraction, an exponent, a sign where none is allowed, or over 78 digits in an amount is 422 request.invalid_amount', async () => {
      const before = await available(h, org.key, 'USD');
      for (const n of ['1.5', '1e3', '1E+30', '100000000000000000000.0', '1'.repeat(79), `-${'1'.repeat(79)}`, '1'.repeat(2000)]) {
        const r = await raw(
          h.app,
          'POST',
          `/operator/v1/organizations/${org.orgId}/adjustments`,
          `{"assetSymbol":"USD","amountMinor":${n},"reason":"x"}`,
        );
        assert.equal(r.statusCode, 422, `${n}: ${r.body}`);
        assert.equal(r.json().code, 'request.invalid_amount');
      }
      // an unsigned amount refuses a negative JSON integer of any size
      for (const n of ['-5', '-123456789012345678901']) {
        const r = await raw(
          h.app,
          'POST',
          '/operator/v1/deposits',
          `{"assetSymbol":"USD","network":"wire","amountMinor":${n},"txid":"t-${n}"}`,
        );
        assert.equal(r.statusCode, 422, `${n}: ${r.body}`);
        assert.equal(r.json().code, 'request.invalid_amount');
      }
      assert.equal(await available(h, org.key, 'USD'), before);
    });

    test('an integer field takes neither a big integer nor an exponent, and nothing is coerced', async () => {
      for (const d of ['12345678901234567890', '1e1', '2.0', '"8"']) {
        const r = await raw(h.app, 'PUT', '/operator/v1/market/assets/ZZZ', `{"decimals":${d}}`);
        assert.equal(r.statusCode, 422, `${d}: ${r.body}`);
        assert.equal(r.json().code, 'request.validation_failed');
      }
      assert.equal((await raw(h.app, 'PUT', '/operator/v1/market/assets/ZZZ', '{"decimals":8}')).statusCode, 200);
    });
  });

  describe(`a balance past numeric(78,0) [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
      await listAssets(h, { ETH: 18 });
    });
    after(async () => h?.close());

    test('an adjustment that would overflow is 422 ledger.amount_overflow and changes nothing', async () => {
      const o = await seedOrg(h);
      const top = (10n ** 78n - 1n).toString();
      assert.equal(
        (await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'ETH', amountMinor: top, reason: 'to the top' }))
          .status,
        201,
      );
      for (const lang of ['en', 'es']) {
        const r = await raw(
          h.app,
          'POST',
          `/operator/v1/organizations/${o.orgId}/adjustments`,
          '{"assetSymbol":"ETH","amountMinor":"1","reason":"one more"}',
          lang,
        );
        assert.equal(r.statusCode, 422, r.body);
        assert.equal(r.json().code, 'ledger.amount_overflow');
        assert.equal(r.json().success, false);
      }
      assert.equal(await available(h, o.key, 'ETH'), 10n ** 78n - 1n);
      // the platform's side overflows too: a second organization funded to the top pushes it past -10^78
      const p = await seedOrg(h);
      const r = await h.op('POST', `/organizations/${p.orgId}/adjustments`, {
        assetSymbol: 'ETH',
        amountMinor: top,
        reason: 'platform past the bottom',
      });
      assert.equal(r.status, 422, r.raw);
      assert.equal(r.body.code, 'ledger.amount_overflow');
      assert.equal(await available(h, p.key, 'ETH'), 0n);
    });
  });
}

describe('unexpected errors are masked; details only in the log', () => {
  let h: Harness;
  let logged: { app: FastifyInstance; logs: string[] };
  let orgId: string;
  before(async () => {
    h = await makeHarness();
    await listAssets(h, { USD: 2 });
    orgId = (await seedOrg(h)).orgId;
    logged = await loggedApp(h);
  });
  after(async () => {
    await logged?.app.close();
    await h?.close();
  });

  async function adjustWith(fault: Error) {
    const original = h.store.accounts.adjust.bind(h.store.accounts);
    h.store.accounts.adjust = async () => {
      throw fault;
    };
    try {
      return await raw(
        logged.app,
        'POST',
        `/operator/v1/organizations/${orgId}/adjustments`,
        '{"assetSymbol":"USD","amountMinor":"5","reason":"x"}',
      );
    } finally {
      h.store.accounts.adjust = original;
    }
  }

  test('an unknown error is 500 internal.unexpected with the traceId; its detail is only in the log', async () => {
    const r = await adjustWith(new Error('disk on fire: /var/lib/secret-path'));
    assert.equal(r.statusCode, 500);
    const body = r.json();
    assert.equal(body.code, 'internal.unexpected');
    assert.equal(body.data, null);
    assert.equal(typeof body.traceId, 'string');
    assert.equal(r.headers['x-trace-id'], body.traceId);
    assert.doesNotMatch(r.body, /disk on fire|secret-path|at .*\.ts/);
    const line = logged.logs.find((l) => l.includes(body.traceId) && l.includes('disk on fire'));
    assert.ok(line, 'the log has the detail under the traceId');
    assert.match(line, /"level":50/);
  });

  test('ledger.unbalanced_entry is an internal invariant: the client sees internal.unexpected, the log the code', async () => {
    const r = await adjustWith(new DomainError('ledger.unbalanced_entry'));
    assert.equal(r.statusCode, 500);
    assert.equal(r.json().code, 'internal.unexpected');
    assert.doesNotMatch(r.body, /unbalanced|balance/);
    assert.ok(logged.logs.some((l) => l.includes(r.json().traceId) && l.includes('ledger.unbalanced_entry')));
  });

  test('a database that cannot be reached is 503 store.unavailable with Retry-After, not a 500', async () => {
    for (const e of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('Connection terminated unexpectedly'),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    ]) {
      const r = await adjustWith(e);
      assert.equal(r.statusCode, 503, e.message);
      assert.equal(r.json().code, 'store.unavailable');
      assert.ok(Number(r.headers['retry-after']) > 0);
    }
  });

  test('a transaction the database rolled back (deadlock) is 503 service.unavailable, not a 500', async () => {
    const r = await adjustWith(Object.assign(new Error('deadlock detected'), { code: '40P01' }));
    assert.equal(r.statusCode, 503);
    assert.equal(r.json().code, 'service.unavailable');
  });
});

describe('validation messages in the caller language; path parameters have their own code', () => {
  let h: Harness;
  let key: string;
  before(async () => {
    h = await makeHarness();
    await listAssets(h, { USD: 2 });
    key = (await seedOrg(h)).key;
  });
  after(async () => h?.close());

  test('a bad query answers in Spanish without an English fragment', async () => {
    const es = await h.call(key, 'GET', '/ledger?limit=101', undefined, { 'x-lang': 'es' });
    assert.equal(es.status, 400);
    assert.equal(es.body.code, 'request.invalid_query');
    assert.equal(es.body.message, 'Los parámetros de consulta no son válidos: limit debe ser como máximo 100.');
    const en = await h.call(key, 'GET', '/ledger?limit=101');
    assert.equal(en.body.message, 'The query is not valid: limit must be at most 100.');
  });

  test('a bad body answers in Spanish without an English fragment', async () => {
    const r = await raw(h.app, 'POST', '/operator/v1/organizations', '{"name":"x","status":"live"}', 'es');
    assert.equal(r.statusCode, 422);
    assert.equal(r.json().code, 'request.validation_failed');
    assert.doesNotMatch(r.json().message, /must|allowed|required/);
    const missing = await raw(h.app, 'POST', '/operator/v1/organizations', '{}', 'es');
    assert.equal(missing.json().message, 'La solicitud no es válida: name es obligatorio.');
  });

  test('a bad path parameter is 400 request.invalid_path, not request.invalid_query', async () => {
    const r = await h.op('GET', `/organizations/${'x'.repeat(65)}`);
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'request.invalid_path');
    assert.equal(r.body.message, 'The path is not valid: id must have at most 64 characters.');
  });
});

describe('rate limit with Redis down', () => {
  test('fails open: requests go on (no 500), with a warning in the log', async () => {
    const { createServer } = await import('node:net');
    const { rateLimitRedis } = await import('../src/http/plugins/rate-limit.ts');
    // a port nothing listens on
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const h = await makeHarness({ env: { CAMBIO_RATE_LIMIT_PER_MIN: '2' } });
    await listAssets(h, { USD: 2 });
    const { key } = await seedOrg(h);
    const logs: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        logs.push(String(chunk));
        cb();
      },
    });
    const logger = pino({ level: 'info' }, stream);
    const redis = rateLimitRedis(`redis://127.0.0.1:${port}`, logger);
    const app = await buildApp({ ...h.deps, redis, logger });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await app.inject({ method: 'GET', url: '/api/v1/client', headers: { 'x-api-key': key } });
        statuses.push(r.statusCode);
      }
      assert.deepEqual(statuses, [200, 200, 200, 200], 'uncounted while Redis is down: neither 500 nor 429');
      assert.equal((await app.inject({ method: 'GET', url: '/api/v1/client' })).statusCode, 401);
      assert.ok(
        logs.some((l) => /"level":40/.test(l) && /Redis unavailable, requests are let through uncounted/.test(l)),
        logs.join(''),
      );
    } finally {
      await app.close();
      redis.disconnect();
      await h.close();
    }
  });
});
