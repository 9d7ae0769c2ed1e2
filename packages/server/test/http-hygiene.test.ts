import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listAssets, makeHarness, OPERATOR_TOKEN, seedOrg, type Harness, type SeededOrg } from './harness.ts';

/** What a browser, a proxy or a curious client notices from outside. */
describe('HTTP hygiene', () => {
  let h: Harness;
  let o: SeededOrg;
  before(async () => {
    h = await makeHarness();
    await listAssets(h, { USD: 2 });
    o = await seedOrg(h);
  });
  after(async () => h?.close());
  const get = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
    h.app.inject({ method: method as 'GET', url, headers });

  test('every answer says nosniff; API answers, errors and the one showing a new key are no-store', async () => {
    const mem = await h.op('POST', `/organizations/${o.orgId}/members`, {
      name: 'K',
      email: 'k@x.test',
      permissions: ['portal:read', 'portal:api_keys'],
    });
    const issued = await h.op('POST', `/members/${mem.body.data.id}/api-keys`, { scopes: ['portal:read'] });
    assert.equal(issued.status, 201);
    const answers = [issued, await h.call(o.key, 'GET', '/balances'), await h.call(null, 'GET', '/balances'), await h.op('GET', '/audit')];
    for (const r of answers) {
      assert.equal(r.headers['x-content-type-options'], 'nosniff');
      assert.equal(r.headers['cache-control'], 'no-store');
    }
    for (const url of ['/health', '/api/v1/openapi.json', '/docs', '/nowhere']) {
      assert.equal((await get(url)).headers['x-content-type-options'], 'nosniff', url);
    }
  });

  test('the docs page has a CSP that forbids framing and inline script beyond its own', async () => {
    const r = await get('/docs/');
    assert.ok(r.statusCode === 200 || r.statusCode === 302, String(r.statusCode));
    const page = r.statusCode === 302 ? await get(String(r.headers.location)) : r;
    const csp = String(page.headers['content-security-policy'] ?? '');
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /object-src 'none'/);
    assert.doesNotMatch(csp, /upgrade-insecure-requests/, 'the service runs on plain http locally');
    assert.equal(page.headers['x-frame-options'], 'DENY');
  });

  test('a wrong method on a known path is 405 with Allow; OPTIONS is answered with Allow; an unknown path stays 404', async () => {
    const del = await get('/api/v1/balances', { 'x-api-key': o.key, 'x-lang': 'en' }, 'DELETE');
    assert.equal(del.statusCode, 405);
    assert.equal(del.headers.allow, 'GET, HEAD, OPTIONS');
    assert.equal(del.json().code, 'request.method_not_allowed');
    assert.equal(del.json().message, 'This endpoint does not take DELETE; it takes GET, HEAD.');
    const orders = await get('/api/v1/orders', {}, 'PUT');
    assert.equal(orders.statusCode, 405);
    assert.equal(orders.headers.allow, 'GET, HEAD, POST, OPTIONS');
    const approve = await get('/operator/v1/orders/ord_x/approve', { authorization: `Bearer ${OPERATOR_TOKEN}` }, 'GET');
    assert.equal(approve.statusCode, 405);
    assert.equal(approve.headers.allow, 'POST, OPTIONS');
    const options = await get('/api/v1/quotes', {}, 'OPTIONS');
    assert.equal(options.statusCode, 204);
    assert.equal(options.headers.allow, 'POST, OPTIONS');
    assert.equal((await get('/api/v1/nothing-here', {}, 'OPTIONS')).statusCode, 404);
    assert.equal((await get('/api/v1/nothing-here', {}, 'DELETE')).statusCode, 404);
  });

  test('without x-lang, Accept-Language picks the language; x-lang wins', async () => {
    const bad = (headers: Record<string, string>) => get('/api/v1/balances', headers).then((r) => r.json().message as string);
    assert.equal(await bad({ 'accept-language': 'en-US,en;q=0.9' }), 'The credential does not authenticate.');
    assert.equal(await bad({ 'accept-language': 'fr, es;q=0.5' }), 'La credencial no es válida.');
    assert.equal(await bad({}), 'La credencial no es válida.');
    assert.equal(await bad({ 'accept-language': 'en', 'x-lang': 'es' }), 'La credencial no es válida.');
  });
});
