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
import { openDestination } from '../src/domain/destinations/register.ts';
import { DestinationSealer, SealedValueRefused } from '../src/domain/destinations/sealer.ts';
import {
  ALL_PERMISSIONS,
  listAssets,
  makeHarness,
  OPERATOR_TOKEN,
  PASSWORD,
  SECRET,
  seedOrg,
  signedInStaff,
  withCookie,
  type Harness,
} from './harness.ts';
import { kyselyOf } from '../src/store/unit-of-work.ts';

/**
 * Security properties a client or an auditor would check from outside: no secret is ever shown again
 * (responses, headers, log lines), every 401 looks and costs the same, every scope is enforced on every
 * endpoint, SQL-looking text is data, and oversized or slow requests are cut off while the service lives on.
 */

interface Exchange {
  label: string;
  status: number;
  text: string;
}

describe('security', () => {
  let h: Harness;
  let app: FastifyInstance;
  const logs: string[] = [];
  const exchanges: Exchange[] = [];

  before(async () => {
    // No cooldown: a destination is usable once registered in the market, so withdrawals can be made and decided.
    h = await makeHarness({ env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
    await listAssets(h, { USD: 2, BTC: 8 });
    // The same app over the same store, with a logger at its most talkative level writing into memory.
    const stream = new Writable({
      write(chunk, _enc, cb) {
        logs.push(String(chunk));
        cb();
      },
    });
    app = await buildApp({ ...h.deps, logger: pino({ level: 'trace' }, stream) });
    await app.ready();
  });
  after(async () => {
    await app?.close();
    await h?.close();
  });

  /** One request through the logged app; the whole answer (status line, headers, body) is kept for the scan. */
  async function send(label: string, method: string, url: string, headers: Record<string, string>, body?: unknown) {
    const r = await app.inject({
      method: method as 'GET',
      url,
      headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    exchanges.push({ label, status: r.statusCode, text: `${JSON.stringify(r.headers)}\n${r.body}` });
    const json = (r.headers['content-type'] ?? '').toString().startsWith('application/json') ? r.json() : null;
    return { status: r.statusCode, body: json, raw: r.body };
  }
  const op = (label: string, method: string, url: string, body?: unknown) =>
    send(label, method, `/operator/v1${url}`, { authorization: `Bearer ${OPERATOR_TOKEN}` }, body);

  test('no secret appears in any response, header or log line', async () => {
    const org = await op('org', 'POST', '/organizations', { name: 'Secretive', status: 'active', limits: {} });
    const mem = await op('member', 'POST', `/organizations/${org.body.data.id}/members`, {
      name: 'S',
      email: 's@x.test',
      permissions: ALL_PERMISSIONS,
    });
    const issued = await op('issue', 'POST', `/members/${mem.body.data.id}/api-keys`, { scopes: [...SCOPES] });
    assert.equal(issued.status, 201);
    const key: string = issued.body.data.key;
    const secretPart = key.split('.')[1]!;
    await op('fund', 'POST', `/organizations/${org.body.data.id}/adjustments`, {
      assetSymbol: 'USD',
      amountMinor: '100000',
      reason: 'funding',
    });
    await op('wallet', 'PUT', '/wallets/USD', { network: 'ach', address: 'sec-usd' });

    const accountNumber = '4321-8765-2109-6543';
    const holderDocument = 'V-99887766';
    const k = { 'x-api-key': key, 'x-lang': 'en' };
    await send('client', 'GET', '/api/v1/client', k);
    await send('balances bearer', 'GET', '/api/v1/balances', { authorization: `Bearer ${key}` });
    const dest = await send('register', 'POST', '/api/v1/withdrawals/destinations/bank', k, {
      label: 'Payroll',
      assetSymbol: 'USD',
      bankName: 'Banco Uno',
      accountKind: 'checking',
      accountNumber,
      holderName: 'Ana Pérez',
      holderDocument,
    });
    assert.equal(dest.status, 201, dest.raw);
    assert.match(dest.body.data.summary, /6543/, 'the summary keeps enough to recognize the account');
    await send('register again', 'POST', '/api/v1/withdrawals/destinations/bank', k, {
      label: 'Again',
      assetSymbol: 'USD',
      bankName: 'Banco Uno',
      accountKind: 'checking',
      accountNumber,
      holderName: 'Ana Pérez',
      holderDocument,
    });
    await send('register invalid', 'POST', '/api/v1/withdrawals/destinations/bank', k, {
      label: 'Bad',
      assetSymbol: 'USD',
      bankName: 'Banco Uno',
      accountKind: 'checking',
      accountNumber: `${accountNumber}${accountNumber}${accountNumber}`,
      holderName: 'Ana',
      holderDocument: `${holderDocument}!`,
    });
    await op('register in market', 'POST', `/destinations/${dest.body.data.id}/register-in-market`);
    const w = await send('withdraw', 'POST', '/api/v1/withdrawals', k, {
      destinationId: dest.body.data.id,
      assetSymbol: 'USD',
      assetDecimals: 2,
      amountMinor: '500',
    });
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

    const stored = await sql<{ secret_hash: string }>`select secret_hash from api_keys where id = ${issued.body.data.id}`.execute(
      h.store.db,
    );
    const secrets: Record<string, string> = {
      'the whole key': key,
      'the key secret': secretPart,
      'the stored key hash': stored.rows[0]!.secret_hash,
      'the operator token': OPERATOR_TOKEN,
      'the server secret': SECRET,
      'the account number': accountNumber,
      'the account number digits': accountNumber.replace(/\D/g, ''),
      'the holder document': holderDocument,
      'the holder document digits': holderDocument.replace(/\D/g, ''),
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
      malformed: { 'x-api-key': 'hello' },
      'unknown prefix': { 'x-api-key': `${tag}_live_zzzzzzzzzzzz.${'A'.repeat(43)}` },
      'wrong secret': { 'x-api-key': `${tag}_live_${prefix}.${'B'.repeat(43)}` },
      revoked: { 'x-api-key': revoked.key },
    };
    // Count the calls into node:crypto made while answering; the module's exports are swapped for counting wrappers.
    const real = { timingSafeEqual: crypto.timingSafeEqual, createHmac: crypto.createHmac };
    const calls = { timingSafeEqual: [] as number[], createHmac: 0 };
    crypto.timingSafeEqual = ((a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      calls.timingSafeEqual.push(a.byteLength);
      return real.timingSafeEqual(a, b);
    }) as typeof crypto.timingSafeEqual;
    crypto.createHmac = ((...args: Parameters<typeof crypto.createHmac>) => {
      calls.createHmac++;
      return real.createHmac(...args);
    }) as typeof crypto.createHmac;
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
        const headerNames = Object.keys(r.headers)
          .filter((n) => n !== 'date')
          .sort();
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
   * Every client endpoint × its scope (the spec's table, docs/design/money-and-states.md). A key without the scope gets 403
   * auth.scope_missing naming it; a key with only that scope passes that gate; a key with the scope whose
   * issuer's role lacks it is refused the same way. A new endpoint missing from this table fails the test.
   */
  const SCOPE_TABLE: Record<string, Scope[]> = {
    'GET /api/v1/client': [],
    'GET /api/v1/balances': ['portal:read'],
    'GET /api/v1/ledger': ['portal:read'],
    'GET /api/v1/ledger.csv': ['portal:read'],
    'GET /api/v1/valuation': ['portal:read'],
    'GET /api/v1/balances/history': ['portal:read'],
    'GET /api/v1/statements/{assetSymbol}/{month}': ['portal:read'],
    'GET /api/v1/market/pairs': ['portal:trade', 'portal:read'],
    'GET /api/v1/events': ['portal:read'],
    'POST /api/v1/quotes': ['portal:trade', 'portal:read'],
    'POST /api/v1/orders': ['portal:trade'],
    'GET /api/v1/orders': ['portal:read'],
    'GET /api/v1/deposits/wallets': ['portal:deposit'],
    'POST /api/v1/deposits/declarations': ['portal:deposit'],
    'POST /api/v1/deposits/declarations/{id}/cancel': ['portal:deposit'],
    'GET /api/v1/deposits/open-declaration': ['portal:read', 'portal:deposit'],
    'GET /api/v1/deposits': ['portal:read'],
    'POST /api/v1/withdrawals/destinations/bank': ['portal:destinations'],
    'POST /api/v1/withdrawals/destinations/crypto': ['portal:destinations'],
    'POST /api/v1/sandbox/deposits': ['portal:deposit'],
    'POST /api/v1/webhooks/{id}/test': ['portal:webhooks'],
    'GET /api/v1/withdrawals/destinations': ['portal:read'],
    'POST /api/v1/withdrawals': ['portal:withdraw'],
    'GET /api/v1/withdrawals': ['portal:read'],
    'GET /api/v1/orders/{id}': ['portal:read'],
    'POST /api/v1/orders/{id}/cancel': ['portal:trade'],
    'GET /api/v1/withdrawals/{id}': ['portal:read'],
    'POST /api/v1/withdrawals/{id}/cancel': ['portal:withdraw'],
    'GET /api/v1/deposits/{id}': ['portal:read'],
    'GET /api/v1/quotes/{id}': ['portal:trade', 'portal:read'],
    'POST /api/v1/webhooks': ['portal:webhooks'],
    'GET /api/v1/webhooks': ['portal:webhooks'],
    'GET /api/v1/webhooks/{id}': ['portal:webhooks'],
    'DELETE /api/v1/webhooks/{id}': ['portal:webhooks'],
    'POST /api/v1/webhooks/{id}/rotate-secret': ['portal:webhooks'],
    'POST /api/v1/webhooks/{id}/enable': ['portal:webhooks'],
    'GET /api/v1/webhooks/{id}/deliveries': ['portal:webhooks'],
    'GET /api/v1/webhooks/{id}/health': ['portal:webhooks'],
    'GET /api/v1/ledger/{entryId}/proof': ['portal:read'],
    'GET /api/v1/liabilities/latest': ['portal:read'],
    'POST /api/v1/webhooks/{id}/deliveries/{eventId}/replay': ['portal:webhooks'],
  };

  test('scopes are enforced on every client endpoint', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const endpoints = Object.entries<Record<string, unknown>>(doc.paths)
      .filter(([p]) => p.startsWith('/api/v1/'))
      .flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    const missing = endpoints.filter((e) => !(e in SCOPE_TABLE));
    assert.deepEqual(missing, [], 'endpoints without a row in the scope table (add the scope the spec gives them)');

    const o = await seedOrg(h, { balances: { USD: 10_000n } });
    const keys = new Map<string, string>();
    const keyWith = async (scopes: Scope[], role: string[] = ALL_PERMISSIONS) => {
      const id = `${scopes.join(',')}|${role.join(',')}`;
      if (!keys.has(id)) {
        // Issued within the member's whole role (a key is never wider than its role), then the role narrows.
        const m = await h.op('POST', `/organizations/${o.orgId}/members`, {
          name: 'K',
          email: `k${keys.size}@x.test`,
          permissions: ALL_PERMISSIONS,
        });
        const k = await h.op('POST', `/members/${m.body.data.id}/api-keys`, { scopes });
        assert.equal(k.status, 201, k.raw);
        if (role !== ALL_PERMISSIONS) assert.equal((await h.op('PATCH', `/members/${m.body.data.id}`, { permissions: role })).status, 200);
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
      const roleLacks = await call(
        await keyWith(
          [...SCOPES],
          ALL_PERMISSIONS.filter((p) => !needs.includes(p as Scope)),
        ),
        endpoint,
      );
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

  /** Every table's whole content, hashed: a refused request must leave each one exactly as it was. */
  async function snapshot(): Promise<Record<string, string>> {
    const tables = await sql<{
      t: string;
    }>`select table_name as t from information_schema.tables where table_schema = 'public' and table_name not like 'kysely%' order by 1`.execute(
      h.store.db,
    );
    const parts = tables.rows.map(
      (r) => sql`select ${r.t} as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from ${sql.table(r.t)} x`,
    );
    const rows = await sql<{ t: string; h: string }>`${sql.join(parts, sql` union all `)}`.execute(h.store.db);
    return Object.fromEntries(rows.rows.map((r) => [r.t, r.h]));
  }

  /**
   * Every route the router knows, as `METHOD /path/{param}` (HEAD left out: Fastify adds it to each GET,
   * behind the same hooks). Read from the router, not the OpenAPI document, so a hidden route is seen too.
   */
  function routerRoutes(): string[] {
    const out: string[] = [];
    const stack: string[] = [];
    for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
      const m = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
      if (!m) continue;
      const depth = m[1]!.length / 4;
      stack.length = depth;
      stack.push(m[2]!);
      const path = stack.join('').replace(/:(\w+)/g, '{$1}');
      for (const method of (m[3] ?? '').split(', ').filter((x) => x && x !== 'HEAD')) out.push(`${method} ${path}`);
    }
    return out;
  }

  /** The routes that answer without any credential, on purpose. The operator's /metrics is not one of them. */
  const PUBLIC = (route: string) =>
    ['GET /health', 'GET /ready', 'GET /api/v1/openapi.json'].includes(route) ||
    /^GET \/docs(\/|$)/.test(route) ||
    // The journal log's checkpoint, key and consistency proofs, and the published liabilities, are for anyone to check.
    /^GET \/transparency\//.test(route) ||
    // Signing in, accepting an invitation and resetting a forgotten password: no session exists yet (they
    // answer their own 401/410; a reset request answers the same for every email).
    /^POST \/(portal|operator)\/v1\/(session|invitations\/accept|password-reset|password-reset\/complete)$/.test(route) ||
    // The web apps' static files (http/plugins/web-apps.ts).
    /^GET \/(portal|desk)(\/|$)/.test(route);

  test('every operator and client route answers a missing or wrong credential with the same 401, and changes nothing', async () => {
    // Real ids and valid bodies: if a route let a wrong credential through, it would act, and the tables would show it.
    const o = await seedOrg(h, { balances: { USD: 100_000n, BTC: 100_000_000n } });
    const other = await seedOrg(h);
    assert.equal(
      (
        await h.op('PUT', '/market/pairs/BTC/USD', {
          midRate: '60000',
          spreadBps: 50,
          feeBps: 10,
          fixedFeeQuoteMinor: '0',
          minBaseMinor: '1000',
          maxBaseMinor: '100000000',
        })
      ).status,
      200,
    );
    const quote = async () =>
      (await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '100000' })).body.data.id as string;
    const order = await h.call(o.key, 'POST', '/orders', { quoteId: await quote() });
    assert.equal(order.status, 201, order.raw);
    const freshQuoteId = await quote();
    const bank = (n: string) => ({
      label: `Auth ${n}`,
      assetSymbol: 'USD',
      bankName: 'Banco Uno',
      accountKind: 'savings',
      accountNumber: `5555-0000-${n}`,
      holderName: 'Ana',
      holderDocument: `D-${n}`,
    });
    const registered = await h.call(o.key, 'POST', '/withdrawals/destinations/bank', bank('0001'));
    assert.equal(registered.status, 201, registered.raw);
    assert.equal((await h.op('POST', `/destinations/${registered.body.data.id}/register-in-market`)).status, 200);
    const waiting = await h.call(o.key, 'POST', '/withdrawals/destinations/bank', bank('0002'));
    const withdrawal = await h.call(o.key, 'POST', '/withdrawals', {
      destinationId: registered.body.data.id,
      assetSymbol: 'USD',
      assetDecimals: 2,
      amountMinor: '100',
    });
    assert.equal(withdrawal.status, 201, withdrawal.raw);
    assert.equal((await h.op('PUT', '/wallets/USD', { network: 'ach', address: 'auth-usd' })).status, 200);
    const arrival = await h.op('POST', '/deposits', {
      assetSymbol: 'USD',
      network: 'ach',
      amountMinor: '4242',
      txid: 'auth-table-unmatched',
    });
    assert.equal(arrival.status, 201, arrival.raw);
    const declaration = await h.call(o.key, 'POST', '/deposits/declarations', {
      assetSymbol: 'USD',
      assetDecimals: 2,
      declaredAmountMinor: '20000',
    });
    assert.equal(declaration.status, 201, declaration.raw);

    const person = await signedInStaff(h, 'admin');
    const staffToken = await withCookie(h, person.cookie, 'POST', '/operator/v1/tokens', { name: 'fixture' });
    assert.equal(staffToken.status, 201, staffToken.raw);
    const hook = await h.store.uow.run((tx) =>
      h.store.webhooks.insert(
        kyselyOf(tx),
        { id: 'whk_fixture', organizationId: o.orgId, url: 'https://hooks.example.test/in', types: null, secretSealed: 'w1.fixture' },
        new Date(),
      ),
    );
    const ids: Record<string, string> = {
      webhooks: hook.id,
      organizations: o.orgId,
      members: o.memberId,
      'api-keys': o.keyId,
      orders: order.body.data.id,
      withdrawals: withdrawal.body.data.id,
      destinations: waiting.body.data.id,
      deposits: arrival.body.data.id,
      declarations: declaration.body.data.id,
      quotes: freshQuoteId,
      staff: person.staffId,
      tokens: staffToken.body.data.id,
      // Refused before anything is read: ids that name no row do as well.
      drafts: 'pdr_fixture',
      requests: 'srq_fixture',
    };
    const params: Record<string, string> = {
      symbol: 'USD',
      base: 'BTC',
      quote: 'USD',
      asset: 'USD',
      eventId: 'evt_aaaaaaaaaaaaaaaaaaaaaaaaaa',
      entryId: 'je_fixture',
      assetSymbol: 'USD',
      month: '2026-01',
      // /portal/v1/approvals/{kind}/{id}: a withdrawal of the organization.
      kind: 'withdrawals',
      id: withdrawal.body.data.id,
    };
    const fill = (path: string) =>
      path
        .replace(/\/([\w-]+)\/\{id\}/g, (_m, coll: string) => {
          assert.ok(ids[coll], `no fixture id for ${path}: add one to this test`);
          return `/${coll}/${ids[coll]}`;
        })
        .replace(/\{(\w+)\}/g, (_m, p: string) => {
          assert.ok(params[p], `no fixture for {${p}} in ${path}`);
          return params[p]!;
        });
    const BODIES: Record<string, unknown> = {
      'PUT /portal/v1/settings/reporting': { reportingCurrency: 'USD' },
      'POST /operator/v1/organizations': { name: 'Intruder', status: 'active', limits: {} },
      'PATCH /operator/v1/organizations/{id}': { status: 'suspended' },
      'POST /operator/v1/organizations/{id}/members': { name: 'Intruder', email: 'intruder@x.test', permissions: ALL_PERMISSIONS },
      'PATCH /operator/v1/members/{id}': { permissions: [] },
      'POST /operator/v1/members/{id}/api-keys': { scopes: ['portal:read'] },
      'POST /operator/v1/api-keys/{id}/revoke': {},
      'POST /operator/v1/organizations/{id}/adjustments': { assetSymbol: 'USD', amountMinor: '1000', reason: 'intruder' },
      'PUT /operator/v1/market/assets/{symbol}': { decimals: 3 },
      'PUT /operator/v1/market/pairs/{base}/{quote}': {
        midRate: '1',
        spreadBps: 0,
        feeBps: 0,
        fixedFeeQuoteMinor: '0',
        minBaseMinor: '1',
        maxBaseMinor: '10',
      },
      'POST /operator/v1/orders/{id}/approve': { reason: 'intruder' },
      'POST /operator/v1/orders/{id}/reject': { reason: 'intruder' },
      'POST /operator/v1/orders/{id}/fill': { venue: 'otc', venueReference: 'r1', proceedsQuoteMinor: '1' },
      'POST /operator/v1/orders/{id}/fail': { reason: 'intruder' },
      'POST /operator/v1/withdrawals/{id}/payout': { payoutReference: 'r1' },
      'POST /operator/v1/withdrawals/{id}/fail': { reason: 'intruder' },
      'PUT /operator/v1/policies/approvals/{asset}': { secondApprovalFromMinor: '1' },
      'PUT /operator/v1/policies/rules': { rules: [] },
      'POST /operator/v1/policies/drafts/{id}/publish': {},
      'POST /operator/v1/requests/{id}/approve': {},
      'POST /operator/v1/requests/{id}/reject': { reason: 'intruder' },
      'PUT /operator/v1/wallets/{symbol}': { network: 'ach', address: 'intruder' },
      'POST /operator/v1/deposits': { assetSymbol: 'USD', network: 'ach', amountMinor: '777', txid: 'intruder-tx' },
      'POST /operator/v1/deposits/{id}/attribute': { organizationId: other.orgId },
      'POST /operator/v1/destinations/{id}/register-in-market': {},
      'POST /operator/v1/destinations/{id}/reveal': { code: '123456' },
      'POST /operator/v1/withdrawals/{id}/approve': { reason: 'intruder' },
      'POST /operator/v1/withdrawals/{id}/reject': { reason: 'intruder' },
      'POST /operator/v1/reconciliation/run': { marketBalances: [{ assetSymbol: 'USD', amountMinor: '1' }] },
      'POST /operator/v1/reconciliation/resolve': { note: 'intruder' },
      'POST /operator/v1/liabilities/snapshots': {},
      'POST /operator/v1/staff': { name: 'Intruder', email: 'intruder@desk.test', role: 'admin' },
      'PATCH /operator/v1/staff/{id}': { role: 'viewer' },
      'POST /operator/v1/tokens': { name: 'intruder' },
      'POST /operator/v1/tokens/{id}/revoke': {},
      'POST /operator/v1/password': { currentPassword: PASSWORD, newPassword: 'intruder chose this one' },
      'POST /operator/v1/totp/enrol': {},
      'POST /operator/v1/totp/confirm': { code: '123456' },
      'POST /portal/v1/password': { currentPassword: PASSWORD, newPassword: 'intruder chose this one' },
      'POST /portal/v1/totp/enrol': {},
      'POST /portal/v1/totp/confirm': { code: '123456' },
      'POST /portal/v1/team/members': { name: 'Intruder', email: 'intruder@x.test', permissions: [] },
      'PATCH /portal/v1/team/members/{id}': { permissions: [] },
      'POST /portal/v1/team/members/{id}/invitation': {},
      'POST /portal/v1/api-keys': { scopes: ['portal:read'] },
      'POST /portal/v1/api-keys/{id}/revoke': {},
      'PUT /portal/v1/policy': { rules: [] },
      'POST /portal/v1/approvals/{kind}/{id}/approve': {},
      'POST /portal/v1/approvals/{kind}/{id}/reject': {},
      'POST /api/v1/quotes': { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '100000' },
      'POST /api/v1/orders': { quoteId: freshQuoteId },
      'POST /api/v1/deposits/declarations': { assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: '10000' },
      'POST /api/v1/withdrawals/destinations/bank': bank('0003'),
      'POST /api/v1/withdrawals/destinations/crypto': {
        label: 'Intruder',
        assetSymbol: 'BTC',
        network: 'bitcoin',
        address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      },
      'POST /api/v1/sandbox/deposits': { assetSymbol: 'USD', amountMinor: '100' },
      'POST /api/v1/webhooks/{id}/test': {},
      'POST /api/v1/orders/{id}/cancel': {},
      'POST /api/v1/withdrawals/{id}/cancel': {},
      'POST /api/v1/deposits/declarations/{id}/cancel': {},
      'POST /api/v1/withdrawals': { destinationId: registered.body.data.id, assetSymbol: 'USD', assetDecimals: 2, amountMinor: '100' },
      'POST /api/v1/webhooks': { url: 'https://hooks.example.test/intruder' },
      'POST /api/v1/webhooks/{id}/rotate-secret': {},
      'POST /api/v1/webhooks/{id}/enable': {},
      'POST /api/v1/webhooks/{id}/deliveries/{eventId}/replay': {},
    };

    const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const documented = Object.entries<Record<string, unknown>>(doc.paths).flatMap(([p, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
    );
    const operatorRoutes = documented.filter((e) => e.split(' ')[1]!.startsWith('/operator/') && !PUBLIC(e));
    const portalRoutes = documented.filter((e) => e.split(' ')[1]!.startsWith('/portal/') && !PUBLIC(e));
    const clientRoutes = documented.filter((e) => e.split(' ')[1]!.startsWith('/api/v1/'));
    assert.ok(
      operatorRoutes.length >= 30 && clientRoutes.length >= 14,
      `${operatorRoutes.length} operator and ${clientRoutes.length} client routes`,
    );
    assert.ok(operatorRoutes.includes('GET /operator/v1/metrics'), 'the metrics are behind the operator token, so in the table');
    // Nothing answers without a credential but the public routes, and the router has no route the document hides.
    const routed = routerRoutes();
    assert.deepEqual(
      documented.filter((r) => !routed.includes(r)),
      [],
      'the router listing was read whole',
    );
    assert.deepEqual(
      routed.filter((r) => !PUBLIC(r) && !documented.includes(r)),
      [],
      'routes missing from the OpenAPI document (and so from this table)',
    );
    for (const url of ['/health', '/api/v1/openapi.json', '/docs'])
      assert.equal((await app.inject({ method: 'GET', url })).statusCode, 200, `${url} is public`);

    const [prefix, secret] = o.key.split('.') as [string, string];
    const wrongSecret = `${prefix}.${secret.slice(0, -4)}${secret.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    const nearToken = `${OPERATOR_TOKEN.slice(0, -1)}${OPERATOR_TOKEN.endsWith('x') ? 'y' : 'x'}`;
    const OPERATOR_CREDENTIALS: Record<string, Record<string, string>> = {
      'no Authorization': {},
      'a wrong token': { authorization: `Bearer ${nearToken}` },
      'a valid client API key as Bearer': { authorization: `Bearer ${o.key}` },
      'a valid client API key in X-API-Key': { 'x-api-key': o.key },
    };
    const CLIENT_CREDENTIALS: Record<string, Record<string, string>> = {
      'no credential': {},
      'a wrong secret in X-API-Key': { 'x-api-key': wrongSecret },
      'a wrong secret as Bearer': { authorization: `Bearer ${wrongSecret}` },
      'the operator token as Bearer': { authorization: `Bearer ${OPERATOR_TOKEN}` },
    };

    const PORTAL_CREDENTIALS: Record<string, Record<string, string>> = {
      'no credential': {},
      'an unknown session cookie': { cookie: `cambio_member=${'A'.repeat(43)}` },
      'a staff session cookie': { cookie: person.cookie.replace('cambio_staff', 'cambio_member').slice(0, -2) + 'zz' },
      'a valid client API key': { 'x-api-key': o.key },
      'the operator token as Bearer': { authorization: `Bearer ${OPERATOR_TOKEN}` },
    };
    OPERATOR_CREDENTIALS['an unknown staff cookie'] = { cookie: `cambio_staff=${'A'.repeat(43)}` };
    OPERATOR_CREDENTIALS['a wrong staff token'] = { authorization: `Bearer ${staffToken.body.data.token.slice(0, -2)}zz` };

    // Keys' last use is written a few seconds late (keys-store.ts): the fixtures' own uses, written now, not during the loop.
    await h.store.keys.flushLastUsed();
    const before = await snapshot();
    const shapes = new Map<string, string[]>();
    let sent = 0;
    for (const [routes, credentials] of [
      [operatorRoutes, OPERATOR_CREDENTIALS],
      [clientRoutes, CLIENT_CREDENTIALS],
      [portalRoutes, PORTAL_CREDENTIALS],
    ] as const) {
      for (const route of routes) {
        const [method, path] = route.split(' ') as [string, string];
        const writes = method !== 'GET' && method !== 'DELETE';
        assert.ok(!writes || route in BODIES, `no body for ${route}: add a valid one to this test`);
        for (const [cause, headers] of Object.entries(credentials)) {
          const r = await app.inject({
            method: method as 'GET',
            url: fill(path),
            headers: { ...headers, 'x-lang': 'en', ...(writes ? { 'content-type': 'application/json' } : {}) },
            ...(writes ? { payload: JSON.stringify(BODIES[route]) } : {}),
          });
          sent++;
          assert.equal(r.statusCode, 401, `${route} with ${cause}: ${r.body}`);
          const { timestamp, traceId, ...body } = r.json();
          assert.ok(!Number.isNaN(Date.parse(timestamp)) && traceId === r.headers['x-trace-id'], `${route} with ${cause}`);
          const shape = `${JSON.stringify(body)} ${Object.keys(r.headers)
            .filter((n) => n !== 'date')
            .sort()
            .join(',')} ${r.headers['content-length']}`;
          shapes.set(shape, [...(shapes.get(shape) ?? []), `${route} with ${cause}`]);
        }
      }
    }
    assert.equal(sent, operatorRoutes.length * 6 + clientRoutes.length * 4 + portalRoutes.length * 5);
    assert.equal(shapes.size, 1, `401 answers differ:\n${[...shapes].map(([s, w]) => `${s}\n  ← ${w.slice(0, 3).join('; ')}`).join('\n')}`);
    assert.match([...shapes.keys()][0]!, /"code":"auth\.unauthenticated"/);
    await h.store.keys.flushLastUsed();
    assert.deepEqual(await snapshot(), before, 'a request with a missing or wrong credential changed a table');
    // The fixtures were live: the same requests with the right credential do act (the checks above were not vacuous).
    assert.equal((await h.op('POST', `/destinations/${ids.destinations}/register-in-market`)).status, 200);
  });

  test('a bank account sealed for one row does not open in another: refused, never returned', async () => {
    const a = await seedOrg(h);
    const b = await seedOrg(h);
    const register = async (key: string, accountNumber: string, holderDocument: string) => {
      const r = await h.call(key, 'POST', '/withdrawals/destinations/bank', {
        label: 'Sealed',
        assetSymbol: 'USD',
        bankName: 'Banco Uno',
        accountKind: 'savings',
        accountNumber,
        holderName: 'Ana',
        holderDocument,
      });
      assert.equal(r.status, 201, r.raw);
      return r.body.data.id as string;
    };
    const [da, da2, db] = [
      await register(a.key, '1111-2222-3333', 'V-111'),
      await register(a.key, '4444-5555-6666', 'V-444'),
      await register(b.key, '7777-8888-9999', 'V-777'),
    ];
    const sealer = new DestinationSealer(SECRET);
    const kid = sealer.kid;
    const openAccount = async (id: string) => {
      const s = await h.store.destinations.sealed(id);
      return s && openDestination(sealer, s);
    };
    const sealed = async (id: string) =>
      (
        await sql<{
          n: string;
          d: string;
        }>`select account_number_enc as n, holder_document_enc as d from withdrawal_destinations where id = ${id}`.execute(h.store.db)
      ).rows[0]!;
    const original = await sealed(db);
    for (const v of [original.n, original.d])
      assert.match(v, new RegExp(`^v2\\.${kid}\\.`), 'new values are v2, under the key id of the server secret');
    assert.deepEqual(await openAccount(db), { accountNumber: '777788889999', holderDocument: 'V-777' });

    const put = (id: string, n: string, d: string) =>
      sql`update withdrawal_destinations set account_number_enc = ${n}, holder_document_enc = ${d} where id = ${id}`.execute(h.store.db);
    const fromA = await sealed(da);
    const fromSameOrg = await sealed(da2);
    try {
      // Another organization's row, another row of the same organization, the two columns swapped: each is refused.
      for (const [what, n, d] of [
        ['from another organization', fromA.n, original.d],
        ['from the same organization', fromSameOrg.n, original.d],
        ['swapped columns', original.d, original.n],
      ] as const) {
        await put(db, n, d);
        await assert.rejects(openAccount(db), SealedValueRefused, what);
      }
    } finally {
      await put(db, original.n, original.d);
    }
    assert.equal((await openAccount(db))?.accountNumber, '777788889999');
    assert.equal((await openAccount(da))?.accountNumber, '111122223333');
  });

  test('SQL-looking text is stored and returned as data', async () => {
    const evil = ["Robert'); DROP TABLE organizations; --", "x' OR '1'='1", 'a"; delete from accounts; --', "\\' ; select pg_sleep(5); --"];
    const org = await h.op('POST', '/organizations', { name: evil[0], status: 'active', limits: {} });
    assert.equal(org.status, 201);
    assert.equal((await h.op('GET', `/organizations/${org.body.data.id}`)).body.data.name, evil[0]);
    const o = await seedOrg(h, { balances: { USD: 1000n } });
    for (const [i, text] of evil.entries()) {
      const a = await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '1', reason: text });
      assert.equal(a.status, 201, a.raw);
      const d = await h.call(o.key, 'POST', '/withdrawals/destinations/bank', {
        label: text,
        assetSymbol: 'USD',
        bankName: text.slice(0, 80),
        accountKind: 'savings',
        accountNumber: `1000-2000-300${i}`,
        holderName: text,
        holderDocument: `D${i}0000`,
      });
      assert.equal(d.status, 201, d.raw);
      assert.equal(d.body.data.label, text);
    }
    const ids = evil.map((e) => encodeURIComponent(e));
    for (const id of ids) assert.equal((await h.op('GET', `/organizations/${id}`)).status, 404);
    const list = await h.call(o.key, 'GET', '/withdrawals/destinations'); // not paged: it takes no query
    assert.deepEqual(list.body.data.map((d: { label: string }) => d.label).sort(), [...evil].sort());
    assert.equal(await available(o.key), 1000n + BigInt(evil.length));
    const tables = await sql<{
      n: number;
    }>`select count(*)::int as n from information_schema.tables where table_schema = 'public' and table_name in ('organizations', 'accounts')`.execute(
      h.store.db,
    );
    assert.equal(tables.rows[0]!.n, 2);
  });

  async function available(key: string): Promise<bigint> {
    const r = await h.call(key, 'GET', '/balances');
    return BigInt(r.body.data.find((b: { assetSymbol: string }) => b.assetSymbol === 'USD')?.amountMinor ?? '0');
  }

  test(`a body over ${BODY_LIMIT / 1024} KiB is a 413 in the envelope and changes nothing`, async () => {
    const o = await seedOrg(h, { balances: { USD: 1000n } });
    const r = await app.inject({
      method: 'POST',
      url: `/operator/v1/organizations/${o.orgId}/adjustments`,
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
