import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { makeHarness, type Harness } from './harness.ts';

// The web apps' static serving (docs/design/people-and-apps.md): files, client-side routes, headers, and nothing outside dist.
let h: Harness;
let root: string;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'cambio-web-'));
  const portal = join(root, 'portal');
  mkdirSync(join(portal, 'assets'), { recursive: true });
  writeFileSync(join(portal, 'index.html'), '<!doctype html><meta name="cambio-mode" content="" /><title>portal</title>');
  writeFileSync(join(portal, 'assets', 'app-abc123.js'), 'console.log(1)');
  writeFileSync(join(root, 'secret.txt'), 'outside dist');
  h = await makeHarness({
    webApps: [
      { name: 'portal', dir: portal },
      { name: 'desk', dir: join(root, 'desk-not-built') },
    ],
  });
});
after(async () => {
  await h.close();
  rmSync(root, { recursive: true, force: true });
});

const get = (url: string) => h.app.inject({ method: 'GET', url });

test('/portal/ answers index.html with a CSP without inline script, no framing and nosniff', async () => {
  const r = await get('/portal/');
  assert.equal(r.statusCode, 200);
  assert.match(r.headers['content-type'] as string, /^text\/html/);
  assert.equal(
    r.body,
    '<!doctype html><meta name="cambio-mode" content="sandbox" /><meta name="cambio-venue" content="venue" /><title>portal</title>',
    'the page says the mode, and that a venue (the simulated market) is read',
  );
  const csp = r.headers['content-security-policy'] as string;
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
  assert.equal(r.headers['x-frame-options'], 'DENY');
  assert.equal(r.headers['cache-control'], 'no-cache');
});

test('a client-side route answers index.html; /portal redirects to /portal/', async () => {
  for (const url of ['/portal/balances', '/portal/orders/abc', '/portal/invitation']) {
    const r = await get(url);
    assert.equal(r.statusCode, 200, url);
    assert.match(r.body, /<title>portal<\/title>/, url);
  }
  const r = await get('/portal');
  assert.equal(r.statusCode, 301);
  assert.equal(r.headers.location, '/portal/');
});

test("a path under /portal/v1 is the API's: unknown there is a 404 in the envelope, never the app", async () => {
  for (const url of ['/portal/v1/nothing-here', '/portal/v1', '/portal/v2/x']) {
    const r = await get(url);
    assert.equal(r.statusCode, 404, url);
    assert.equal(r.json().code, 'request.not_found', url);
  }
});

test('a built asset is served as itself, cached for ever (content-hashed name), with the same headers', async () => {
  const r = await get('/portal/assets/app-abc123.js');
  assert.equal(r.statusCode, 200);
  assert.equal(r.body, 'console.log(1)');
  assert.match(r.headers['content-type'] as string, /javascript/);
  assert.equal(r.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
});

test('nothing outside dist is reachable, however the path is written', async () => {
  for (const url of [
    '/portal/../secret.txt',
    '/portal/%2e%2e/secret.txt',
    '/portal/..%2fsecret.txt',
    '/portal/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
  ]) {
    const r = await get(url);
    assert.notEqual(r.body, 'outside dist', url);
  }
});

test('an app that was not built answers 404 in the envelope, and the APIs are untouched', async () => {
  const r = await get('/desk/');
  assert.equal(r.statusCode, 404);
  assert.equal(r.json().code, 'request.not_found');
  const api = await get('/api/v1/client');
  assert.equal(api.statusCode, 401);
  assert.equal(api.headers['content-security-policy'], undefined);
});
