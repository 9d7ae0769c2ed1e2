import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { available, listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';

/** The envelope of an error: success false, data null, a code, a message, a timestamp and the traceId. */
function assertErrorEnvelope(body: Record<string, unknown>, code: string) {
  assert.equal(body.success, false);
  assert.equal(body.data, null);
  assert.equal(body.code, code);
  assert.equal(typeof body.message, 'string');
  assert.ok(!Number.isNaN(Date.parse(body.timestamp as string)));
  assert.equal(typeof body.traceId, 'string');
  assert.equal(body.pagination, null);
}

describe('wire: amounts, envelope, pagination, language', () => {
  let h: Harness;
  let org: Awaited<ReturnType<typeof seedOrg>>;
  before(async () => {
    h = await makeHarness();
    await listAssets(h, { USD: 2, ETH: 18 });
    org = await seedOrg(h);
  });
  after(async () => h?.close());

  const adjust = (payload: string) =>
    h.app.inject({
      method: 'POST',
      url: `/operator/v1/organizations/${org.orgId}/adjustments`,
      headers: { authorization: 'Bearer test-operator-token-0123456789', 'content-type': 'application/json', 'x-lang': 'en' },
      payload,
    });

  test('a 40-digit amount round-trips exactly', async () => {
    const o = await seedOrg(h);
    const forty = '1234567890123456789012345678901234567890';
    const r = await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'ETH', amountMinor: forty, reason: 'big' });
    assert.equal(r.status, 201);
    assert.equal(r.body.data.availableMinor, forty);
    assert.equal(await available(h, o.key, 'ETH'), BigInt(forty));
  });

  test('2^256-1 round-trips exactly', async () => {
    const o = await seedOrg(h);
    const max = (2n ** 256n - 1n).toString();
    const r = await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'ETH', amountMinor: max, reason: 'max' });
    assert.equal(r.status, 201);
    const b = await h.call(o.key, 'GET', '/balances');
    assert.equal(b.body.data[0].amountMinor, max);
    assert.match(b.raw, new RegExp(`"amountMinor":"${max}"`));
  });

  test('a 20-digit JSON integer is never rounded', async () => {
    const before = await available(h, org.key, 'ETH');
    // 12345678901234567891 is not representable as a double: JSON.parse would make it ...7000
    const r = await adjust('{"assetSymbol":"ETH","amountMinor":12345678901234567891,"reason":"raw integer"}');
    assert.equal(r.statusCode, 201);
    assert.equal(r.json().data.amountMinor, '12345678901234567891');
    assert.equal(await available(h, org.key, 'ETH'), before + 12345678901234567891n);
  });

  test('amounts that are not whole minor units are a 422 with a clear code, and change nothing', async () => {
    const before = await available(h, org.key, 'USD');
    for (const bad of ['1.5', '1e3', '"1.5"', '"-"', '""', '"12a"', 'true', 'null', `"${'9'.repeat(79)}"`, '[1]']) {
      const a = await adjust(`{"assetSymbol":"USD","amountMinor":${bad},"reason":"x"}`);
      assert.equal(a.statusCode, 422, `${bad}: ${a.body}`);
      assertErrorEnvelope(a.json(), 'request.invalid_amount');
    }
    assert.equal(await available(h, org.key, 'USD'), before);
  });

  test('bad JSON is a 400 in the envelope', async () => {
    const r = await adjust('{"assetSymbol": "USD", ');
    assert.equal(r.statusCode, 400);
    assertErrorEnvelope(r.json(), 'request.invalid_json');
  });

  test('prototype poisoning is refused', async () => {
    const r = await adjust('{"assetSymbol":"USD","amountMinor":"1","reason":"x","__proto__":{"admin":true}}');
    assert.equal(r.statusCode, 400);
    assertErrorEnvelope(r.json(), 'request.invalid_json');
    const c = await adjust('{"assetSymbol":"USD","amountMinor":"1","reason":"x","constructor":{"prototype":{"admin":true}}}');
    assert.equal(c.statusCode, 400);
  });

  test('an unknown path is a 404 in the envelope, with x-trace-id', async () => {
    const r = await h.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    assert.equal(r.statusCode, 404);
    assertErrorEnvelope(r.json(), 'request.not_found');
    assert.equal(r.headers['x-trace-id'], r.json().traceId);
  });

  test('a huge body is a 413 in the envelope', async () => {
    const r = await adjust(JSON.stringify({ assetSymbol: 'USD', amountMinor: '1', reason: 'x'.repeat(200_000) }));
    assert.equal(r.statusCode, 413);
    assertErrorEnvelope(r.json(), 'request.body_too_large');
  });

  test('a body that is not JSON is a 415', async () => {
    const r = await h.app.inject({
      method: 'POST',
      url: `/operator/v1/organizations/${org.orgId}/adjustments`,
      headers: { authorization: 'Bearer test-operator-token-0123456789', 'content-type': 'text/plain' },
      payload: 'hi',
    });
    assert.equal(r.statusCode, 415);
    assertErrorEnvelope(r.json(), 'request.unsupported_media_type');
  });

  test('validation errors name the field', async () => {
    const r = await adjust('{"assetSymbol":"USD","amountMinor":"1"}');
    assert.equal(r.statusCode, 422);
    assertErrorEnvelope(r.json(), 'request.validation_failed');
    assert.match(r.json().message, /reason/);
  });

  test('malformed pagination is a 400, never clamped', async () => {
    for (const q of ['limit=0', 'limit=101', 'page=0', 'page=-1', 'page=abc', 'limit=1.5']) {
      const r = await h.call(org.key, 'GET', `/ledger?${q}`);
      assert.equal(r.status, 400, q);
      assertErrorEnvelope(r.body, 'request.invalid_query');
    }
    const ok = await h.call(org.key, 'GET', '/ledger?page=1&limit=100');
    assert.equal(ok.status, 200);
    assert.equal(ok.body.pagination.limit, 100);
  });

  test('ledger pages walk newest first with exact totals', async () => {
    const o = await seedOrg(h);
    for (let i = 1; i <= 5; i++)
      await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: String(i), reason: `r${i}` });
    const p1 = await h.call(o.key, 'GET', '/ledger?limit=2');
    assert.match(p1.body.pagination.asOf, /^[A-Za-z0-9_-]{48}$/);
    assert.deepEqual(p1.body.pagination, { asOf: p1.body.pagination.asOf, page: 1, limit: 2, total: 5, totalPages: 3 });
    assert.deepEqual(
      p1.body.data.map((e: { amountMinor: string }) => e.amountMinor),
      ['5', '4'],
    );
    const p3 = await h.call(o.key, 'GET', '/ledger?limit=2&page=3');
    assert.deepEqual(
      p3.body.data.map((e: { memo: string }) => e.memo),
      ['r1'],
    );
    assert.equal(p3.body.data[0].kind, 'adjustment');
    assert.equal(p3.body.data[0].assetDecimals, 2);
  });

  test('x-lang picks the message language; default and unknown are Spanish', async () => {
    const en = await h.app.inject({ method: 'GET', url: '/api/v1/client', headers: { 'x-lang': 'en' } });
    const es = await h.app.inject({ method: 'GET', url: '/api/v1/client' });
    const xx = await h.app.inject({ method: 'GET', url: '/api/v1/client', headers: { 'x-lang': 'klingon' } });
    assert.equal(en.json().message, 'The credential does not authenticate.');
    assert.equal(es.json().message, 'La credencial no es válida.');
    assert.equal(xx.json().message, es.json().message);
    assert.equal(en.json().code, es.json().code);
  });

  test('the OpenAPI 3.1 document and the offline reference page are served', async () => {
    const r = await h.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    assert.equal(r.statusCode, 200);
    const doc = r.json();
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.paths['/api/v1/client']);
    assert.ok(doc.paths['/api/v1/balances'].get.responses['200']);
    assert.ok(doc.paths['/operator/v1/organizations']);
    const page = await h.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /swagger/i);
    assert.doesNotMatch(page.body, /https?:\/\/(unpkg|cdn)/);
  });

  test('an adjustment never drives available below zero', async () => {
    const o = await seedOrg(h, { balances: { USD: 100n } });
    const r = await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '-101', reason: 'too much' });
    assert.equal(r.status, 422);
    assert.equal(r.body.code, 'ledger.insufficient_balance');
    assert.equal(await available(h, o.key, 'USD'), 100n);
    const ok = await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '-100', reason: 'all' });
    assert.equal(ok.status, 201);
    assert.equal(await available(h, o.key, 'USD'), 0n);
  });
});

describe('operator metrics', () => {
  test('Prometheus text with request durations by route pattern, behind the operator token', async () => {
    const h = await makeHarness();
    try {
      await h.app.inject({ method: 'GET', url: '/api/v1/client' });
      assert.equal((await h.app.inject({ method: 'GET', url: '/operator/v1/metrics' })).statusCode, 401);
      const r = await h.app.inject({
        method: 'GET',
        url: '/operator/v1/metrics',
        headers: { authorization: 'Bearer test-operator-token-0123456789' },
      });
      assert.equal(r.statusCode, 200);
      assert.match(r.body, /cambio_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/client",status="401"\} 1/);
    } finally {
      await h.close();
    }
  });
});
