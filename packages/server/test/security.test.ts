import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { SCOPES, type Scope } from '@cambio/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pino from 'pino';
import { buildApp, BODY_LIMIT } from '../src/app.ts';
import { ALL_PERMISSIONS, listAssets, makeHarness, OPERATOR_TOKEN, SECRET, seedOrg, type Harness } from './harness.ts';

/**
 * Security properties a client or an auditor would check from outside: no secret is ever shown again
 * (responses, headers, log lines), every 401 looks and costs the same, every scope is enforced on every
 * endpoint, SQL-looking text is data, and oversized or slow requests are cut off while the service lives on.
 */

interface Exchange { label: string; status: number; text: string }

describe('security', () => {
  let h: Harness;
  let app: FastifyInstance;
  const logs: string[] = [];
  const exchanges: Exchange[] = [];

  before(async () => {
    h = await makeHarness();
    await listAssets(h, { USD: 2, BTC: 8 });
    // The same app over the same store, with a logger at its most talkative level writing into memory.
    const stream = new Writable({ write(chunk, _enc, cb) { logs.push(String(chunk)); cb(); } });
    app = await buildApp({ ...h.deps, logger: pino({ level: 'trace' }, stream) });
    await app.ready();
  });
  after(async () => { await app?.close(); await h?.close(); });

  /** One request through the logged app; the whole answer (status line, headers, body) is kept for the scan. */
  async function send(label: string, method: string, url: string, headers: Record<string, string>, body?: unknown) {
    const r = await app.inject({
      method: method as 'GET', url, headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    exchanges.push({ label, status: r.statusCode, text: `${JSON.stringify(r.headers)}\n${r.body}` });
    const json = (r.headers['content-type'] ?? '').toString().startsWith('application/json') ? r.json() : null;
    return { status: r.statusCode, body: json, raw: r.body };
  }
  const op = (label: string, method: string, url: string, body?: unknown) => send(label, method, `/operator/v1${url}`, { authorization: `Bearer ${OPERATOR_TOKEN}` }, body);

  test('no secret appears in any response, header or log line', async () => {
    const org = await op('org', 'POST', '/organizations', { name: 'Secretive', status: 'active', limits: {} });
    const mem = await op('member', 'POST', `/organizations/${org.body.data.id}/members`, { name: 'S', email: 's@x.test', permissions: ALL_PERMISSIONS });
    const issued = await op('issue', 'POST', `/members/${mem.body.data.id}/api-keys`, { scopes: [...SCOPES] });
    assert.equal(issued.status, 201);
    const key: string = issued.body.data.key;
    const secretPart = key.split('.')[1]!;
    await op('fund', 'POST', `/organizations/${org.body.data.id}/adjustments`, { assetSymbol: 'USD', amountMinor: '100000', reason: 'funding' });
    await op('wallet', 'PUT', '/wallets/USD', { network: 'ach', address: 'sec-usd' });

    const accountNumber = '4321-8765-2109-6543';
    const holderDocument = 'V-99887766';
    const k = { 'x-api-key': key, 'x-lang': 'en' };
    await send('client', 'GET', '/api/v1/client', k);
    await send('balances bearer', 'GET', '/api/v1/balances', { authorization: `Bearer ${key}` });
    const dest = await send('register', 'POST', '/api/v1/withdrawals/destinations/bank', k, {
      label: 'Payroll', assetSymbol: 'USD', bankName: 'Banco Uno', accountKind: 'checking', accountNumber, holderName: 'Ana Pérez', holderDocument,
    });
    assert.equal(dest.status, 201, dest.raw);
    assert.match(dest.body.data.summary, /6543/, 'the summary keeps enough to recognize the account');
    await send('register again', 'POST', '/api/v1/withdrawals/destinations/bank', k, {
      label: 'Again', assetSymbol: 'USD', bankName: 'Banco Uno', accountKind: 'checking', accountNumber, holderName: 'Ana Pérez', holderDocument,
    });
    await send('register invalid', 'POST', '/api/v1/withdrawals/destinations/bank', k, {
      label: 'Bad', assetSymbol: 'USD', bankName: 'Banco Uno', accountKind: 'checking', accountNumber: `${accountNumber}${accountNumber}${accountNumber}`, holderName: 'Ana', holderDocument: `${holderDocument}!`,
    });
    await op('register in market', 'POST', `/destinations/${dest.body.data.id}/register-in-market`);
    const w = await send('withdraw', 'POST', '/api/v1/withdrawals', k, { destinationId: dest.body.data.id, assetSymbol: 'USD', assetDecimals: 2, amountMinor: '500' });
    await send('destinations', 'GET', '/api/v1/withdrawals/destinations', k);
    await send('withdrawals', 'GET', '/api/v1/withdrawals', k);
    await send('ledger', 'GET', '/api/v1/ledger?limit=100', k);
    await op('op destinations', 'GET', '/destinations?limit=100');
    await op('op withdrawals', 'GET', '/withdrawals?limit=100');
    if (w.status === 201) await op('approve', 'POST', `/withdrawals/${w.body.data.id}/approve`, {});
    // Secrets sent where they do not belong must not be echoed back.
    await send('wrong secret', 'GET', '/api/v1/client', { 'x-api-key': `${key.split('.')[0]}.${'A'.repeat(43)}` });
    await send('token as key', 'GET', '/api/v1/client', { 'x-api-key': OPERATOR_TOKEN });
    await send('key in query', 'GET', `/api/v1/balances?key=${encodeURIComponent(key)}`, k);
    await send('near token', 'GET', '/operator/v1/audit', { authorization: `Bearer ${OPERATOR_TOKEN}x` });
    await send('key as operator', 'GET', '/operator/v1/audit', { authorization: `Bearer ${key}` });
    await op('audit', 'GET', '/audit?limit=100');
    await op('metrics', 'GET', '/metrics');
    await op('revoke', 'POST', `/api-keys/${issued.body.data.id}/revoke`);
    await send('revoked', 'GET', '/api/v1/client', k);
    await send('openapi', 'GET', '/api/v1/openapi.json', {});

    const stored = await sql<{ secret_hash: string }>`select secret_hash from api_keys where id = ${issued.body.data.id}`.execute(h.store.db);
    const secrets: Record<string, string> = {
      'the whole key': key, 'the key secret': secretPart, 'the stored key hash': stored.rows[0]!.secret_hash,
      'the operator token': OPERATOR_TOKEN, 'the server secret': SECRET,
      'the account number': accountNumber, 'the account number digits': accountNumber.replace(/\D/g, ''),
      'the holder document': holderDocument, 'the holder document digits': holderDocument.replace(/\D/g, ''),
    };
    assert.ok(logs.length >= exchanges.length, `the logger wrote ${logs.length} lines for ${exchanges.length} requests`);
    for (const [what, s] of Object.entries(secrets)) {
      for (const e of exchanges) {
        // The issue answer is the one place the key is shown (once); even there the stored hash is not.
        if (e.label === 'issue' && (what === 'the whole key' || what === 'the key secret')) continue;
        assert.ok(!e.text.includes(s), `${what} appears in the answer to "${e.label}" (${e.status})`);
      }
      const line = logs.find((l) => l.includes(s));
      assert.equal(line, undefined, `${what} appears in a log line: ${line?.slice(0, 200)}`);
    }
  });

  test('every cause of 401 takes the same path: one keyed hash and one constant-time compare', async () => {
    const o = await seedOrg(h);
    const [tag, rest] = o.key.split('_live_') as [string, string];
    const prefix = rest.split('.')[0]!;
    const revoked = await seedOrg(h);
    await h.op('POST', `/api-keys/${revoked.keyId}/revoke`);
    const causes: Record<string, Record<string, string>> = {
      'no credential': {},
      'malformed': { 'x-api-key': 'hello' },
      'unknown prefix': { 'x-api-key': `${tag}_live_zzzzzzzzzzzz.${'A'.repeat(43)}` },
      'wrong secret': { 'x-api-key': `${tag}_live_${prefix}.${'B'.repeat(43)}` },
      'revoked': { 'x-api-key': revoked.key },
    };
    // Count the calls into node:crypto made while answering; the module's exports are swapped for counting wrappers.
    const real = { timingSafeEqual: crypto.timingSafeEqual, createHmac: crypto.createHmac };
    const calls = { timingSafeEqual: [] as number[], createHmac: 0 };
    crypto.timingSafeEqual = ((a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => { calls.timingSafeEqual.push(a.byteLength); return real.timingSafeEqual(a, b); }) as typeof crypto.timingSafeEqual;
    crypto.createHmac = ((...args: Parameters<typeof crypto.createHmac>) => { calls.createHmac++; return real.createHmac(...args); }) as typeof crypto.createHmac;
    syncBuiltinESMExports();
    const seen: Record<string, string> = {};
    const shapes = new Set<string>();
    try {
      for (const [cause, headers] of Object.entries(causes)) {
        calls.timingSafeEqual = [];
        calls.createHmac = 0;
        const r = await app.inject({ method: 'GET', url: '/api/v1/balances', headers: { ...headers, 'x-lang': 'en' } });
        assert.equal(r.statusCode, 401, cause);
        seen[cause] = `hmac×${calls.createHmac} compare×${calls.timingSafeEqual.length} of ${calls.timingSafeEqual.join(',')} bytes`;
        const { timestamp: _t, traceId: _i, ...body } = r.json();
        const headerNames = Object.keys(r.headers).filter((n) => n !== 'date').sort();
        shapes.add(`${JSON.stringify(body)} ${headerNames.join(',')} ${r.headers['content-length']}`);
      }
      calls.timingSafeEqual = [];
      const op401 = await app.inject({ method: 'GET', url: '/operator/v1/audit', headers: { authorization: 'Bearer short' } });
      assert.equal(op401.statusCode, 401);
      assert.deepEqual(calls.timingSafeEqual, [32], 'a wrong operator token of any length is compared as a 32-byte hash');
    } finally {
      crypto.timingSafeEqual = real.timingSafeEqual;
      crypto.createHmac = real.createHmac;
      syncBuiltinESMExports();
    }
    assert.deepEqual(new Set(Object.values(seen)), new Set(['hmac×1 compare×1 of 32 bytes']), JSON.stringify(seen, null, 1));
    assert.equal(shapes.size, 1, `401 answers differ in body, headers or length:\n${[...shapes].join('\n')}`);
  });

  /**
   * Every client endpoint × its scope (the spec's table, CONTRACT §6). A key without the scope gets 403
   * auth.scope_missing naming it; a key with only that scope passes that gate; a key with the scope whose
   * issuer's role lacks it is refused the same way. A new endpoint missing from this table fails the test.
   */
  const SCOPE_TABLE: Record<string, Scope[]> = {
    'GET /api/v1/client': [],
    'GET /api/v1/balances': ['portal:read'],
    'GET /api/v1/ledger': ['portal:read'],
    'POST /api/v1/quotes': ['portal:trade', 'portal:read'],
    'POST /api/v1/orders': ['portal:trade'],
    'GET /api/v1/orders': ['portal:read'],
    'GET /api/v1/deposits/wallets': ['portal:deposit'],
    'POST /api/v1/deposits/declarations': ['portal:deposit'],
    'GET /api/v1/deposits/open-declaration': ['portal:read', 'portal:deposit'],
    'GET /api/v1/deposits': ['portal:read'],
    'POST /api/v1/withdrawals/destinations/bank': ['portal:destinations'],
    'GET /api/v1/withdrawals/destinations': ['portal:read'],
    'POST /api/v1/withdrawals': ['portal:withdraw'],
    'GET /api/v1/withdrawals': ['portal:read'],
  };

  test('scopes are enforced on every client endpoint', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const endpoints = Object.entries<Record<string, unknown>>(doc.paths).filter(([p]) => p.startsWith('/api/v1/'))
      .flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    const missing = endpoints.filter((e) => !(e in SCOPE_TABLE));
    assert.deepEqual(missing, [], 'endpoints without a row in the scope table (add the scope the spec gives them)');

    const o = await seedOrg(h, { balances: { USD: 10_000n } });
    const keys = new Map<string, string>();
    const keyWith = async (scopes: Scope[], role: string[] = ALL_PERMISSIONS) => {
      const id = `${scopes.join(',')}|${role.join(',')}`;
      if (!keys.has(id)) {
        const m = await h.op('POST', `/organizations/${o.orgId}/members`, { name: 'K', email: `k${keys.size}@x.test`, permissions: role });
        const k = await h.op('POST', `/members/${m.body.data.id}/api-keys`, { scopes });
        assert.equal(k.status, 201, k.raw);
        keys.set(id, k.body.data.key);
      }
      return keys.get(id)!;
    };
    const call = (key: string, endpoint: string) => {
      const [method, path] = endpoint.split(' ') as [string, string];
      return h.call(key, method, path.replace('/api/v1', '').replace(/\{[^}]+\}/g, 'x'), method === 'GET' ? undefined : {});
    };
    let checked = 0;
    for (const endpoint of endpoints) {
      const needs = SCOPE_TABLE[endpoint]!;
      if (needs.length === 0) {
        for (const s of SCOPES) assert.equal((await call(await keyWith([s]), endpoint)).status, 200, `${endpoint} with only ${s}`);
        continue;
      }
      // Without any of the scopes that open it: refused, and the message names what is missing.
      const others = SCOPES.filter((s) => !needs.includes(s));
      const without = await call(await keyWith(others), endpoint);
      assert.equal(without.status, 403, `${endpoint} without ${needs.join('/')}: ${without.raw}`);
      assert.equal(without.body.code, 'auth.scope_missing');
      for (const s of needs) assert.match(without.body.message!, new RegExp(s), endpoint);
      // The key carries the scope but the person's role does not: the intersection decides.
      const roleLacks = await call(await keyWith([...SCOPES], ALL_PERMISSIONS.filter((p) => !needs.includes(p as Scope))), endpoint);
      assert.equal(roleLacks.body.code, 'auth.scope_missing', `${endpoint} with a role lacking ${needs.join('/')}`);
      // With any one of them alone: past the scope gate (whatever the body then deserves).
      for (const s of needs) {
        const r = await call(await keyWith([s]), endpoint);
        assert.notEqual(r.body.code, 'auth.scope_missing', `${endpoint} with only ${s}: ${r.raw}`);
        assert.notEqual(r.status, 401, endpoint);
      }
      checked++;
    }
    assert.ok(checked >= 10, `only ${checked} endpoints with scopes were checked`);
  });

  test('SQL-looking text is stored and returned as data', async () => {
    const evil = ["Robert'); DROP TABLE organizations; --", "x' OR '1'='1", 'a"; delete from accounts; --', '\\\' ; select pg_sleep(5); --'];
    const org = await h.op('POST', '/organizations', { name: evil[0], status: 'active', limits: {} });
    assert.equal(org.status, 201);
    assert.equal((await h.op('GET', `/organizations/${org.body.data.id}`)).body.data.name, evil[0]);
    const o = await seedOrg(h, { balances: { USD: 1000n } });
    for (const [i, text] of evil.entries()) {
      const a = await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '1', reason: text });
      assert.equal(a.status, 201, a.raw);
      const d = await h.call(o.key, 'POST', '/withdrawals/destinations/bank', {
        label: text, assetSymbol: 'USD', bankName: text.slice(0, 80), accountKind: 'savings', accountNumber: `1000-2000-300${i}`, holderName: text, holderDocument: `D${i}0000`,
      });
      assert.equal(d.status, 201, d.raw);
      assert.equal(d.body.data.label, text);
    }
    const ids = evil.map((e) => encodeURIComponent(e));
    for (const id of ids) assert.equal((await h.op('GET', `/organizations/${id}`)).status, 404);
    const list = await h.call(o.key, 'GET', '/withdrawals/destinations?limit=100');
    assert.deepEqual(list.body.data.map((d: { label: string }) => d.label).sort(), [...evil].sort());
    assert.equal(await available(o.key), 1000n + BigInt(evil.length));
    const tables = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_schema = 'public' and table_name in ('organizations', 'accounts')`.execute(h.store.db);
    assert.equal(tables.rows[0]!.n, 2);
  });

  async function available(key: string): Promise<bigint> {
    const r = await h.call(key, 'GET', '/balances');
    return BigInt(r.body.data.find((b: { assetSymbol: string }) => b.assetSymbol === 'USD')?.amountMinor ?? '0');
  }

  test(`a body over ${BODY_LIMIT / 1024} KiB is a 413 in the envelope and changes nothing`, async () => {
    const o = await seedOrg(h, { balances: { USD: 1000n } });
    const r = await app.inject({
      method: 'POST', url: `/operator/v1/organizations/${o.orgId}/adjustments`,
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json', 'x-lang': 'en' },
      payload: JSON.stringify({ assetSymbol: 'USD', amountMinor: '5', reason: 'x'.repeat(BODY_LIMIT) }),
    });
    assert.equal(r.statusCode, 413);
    assert.equal(r.json().code, 'request.body_too_large');
    assert.equal(r.json().data, null);
    assert.equal(await available(o.key), 1000n);
  });

  /** Raw HTTP over a real socket: what a client that ignores the rules actually gets. */
  function raw(port: number, text: string, opts: { end?: boolean } = {}): Promise<string> {
    return new Promise((resolve, reject) => {
      const s = connect(port, '127.0.0.1');
      let got = '';
      s.on('data', (d) => (got += d.toString()));
      s.on('close', () => resolve(got));
      s.on('error', (e) => (got ? resolve(got) : reject(e)));
      s.write(text);
      if (opts.end) s.end();
      setTimeout(() => s.destroy(), 10_000).unref();
    });
  }

  /** The refusal Node makes before any route still speaks the envelope, with its traceId in the header too. */
  function assertEnvelope(response: string, code: string) {
    const [head, body] = response.split('\r\n\r\n') as [string, string];
    const b = JSON.parse(body);
    assert.equal(b.code, code);
    assert.equal(b.success, false);
    assert.equal(b.data, null);
    assert.match(head, new RegExp(`x-trace-id: ${b.traceId}`, 'i'));
  }

  test('an oversized header is refused (431) and a slow client is cut off (408); the service goes on serving', async () => {
    const served = await buildApp({ ...h.deps, requestTimeoutMs: 300 });
    // Node checks request deadlines on this interval (30 s by default); short here so the test stays fast.
    (served.server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval = 50;
    await served.listen({ port: 0, host: '127.0.0.1' });
    const port = (served.server.address() as { port: number }).port;
    try {
      const big = await raw(port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
      assert.match(big, /^HTTP\/1\.1 431 /);
      assertEnvelope(big, 'request.headers_too_large');
      const slow = await raw(port, 'GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n');
      assert.match(slow, /^HTTP\/1\.1 408 /);
      assertEnvelope(slow, 'request.timeout');
      const garbage = await raw(port, 'HELLO\r\n\r\n');
      assert.match(garbage, /^HTTP\/1\.1 400 /);
      assertEnvelope(garbage, 'request.bad_request');
      const ok = await fetch(`http://127.0.0.1:${port}/health`);
      assert.equal(ok.status, 200);
      assert.equal((await ok.json()).success, true);
    } finally {
      await served.close();
    }
  });
});
