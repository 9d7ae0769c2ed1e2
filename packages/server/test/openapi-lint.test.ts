import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeHarness, type Harness } from './harness.ts';

/**
 * The OpenAPI document against the rules of Redocly's `recommended` set that it failed (19
 * operations without a summary, an empty `servers`, /operator/v1/metrics without security, 47
 * operations without an operationId), checked here because the Redocly CLI cannot run offline in CI:
 * operation-summary, operation-operationId, operation-operationId-unique, operation-operationId-url-safe,
 * no-empty-servers, no-server-example.com, no-server-trailing-slash, security-defined,
 * operation-2xx-response, operation-4xx-response, path-parameters-defined, info-license.
 */
describe('the OpenAPI document passes the recommended rules', () => {
  let h: Harness;
  let doc: {
    info: { license?: { name?: string } };
    servers?: Array<{ url: string }>;
    paths: Record<string, Record<string, Record<string, unknown>>>;
    components: { securitySchemes: Record<string, unknown> };
  };
  before(async () => {
    h = await makeHarness();
    doc = (await h.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  });
  after(async () => h?.close());
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));

  test('every operation has a summary and a unique, url-safe operationId', () => {
    const ids = new Set<string>();
    for (const { path, method, op } of operations()) {
      assert.ok(typeof op.summary === 'string' && op.summary.length > 0, `${method} ${path} has no summary`);
      assert.match(String(op.operationId), /^[A-Za-z0-9_.~-]+$/, `${method} ${path} operationId`);
      assert.ok(!ids.has(String(op.operationId)), `operationId ${String(op.operationId)} repeats`);
      ids.add(String(op.operationId));
    }
    assert.ok(ids.has('getOrder') && ids.has('cancelOrder') && ids.has('getOrders'));
  });

  test('servers, license, security on every operator operation, declared schemes only', () => {
    assert.ok(doc.servers && doc.servers.length > 0, 'servers');
    for (const s of doc.servers) {
      assert.doesNotMatch(s.url, /example\.com/);
      assert.doesNotMatch(s.url, /\/$/);
    }
    assert.ok(doc.info.license?.name, 'info.license');
    for (const { path, method, op } of operations()) {
      const security = op.security as Array<Record<string, unknown>> | undefined;
      const signIn =
        /^\/operator\/v1\/(session|invitations\/accept|password-reset|password-reset\/complete)$/.test(path) && method === 'post';
      if (path.startsWith('/operator/') && !signIn) assert.ok(security && security.length > 0, `${method} ${path} has no security`);
      for (const req of security ?? [])
        for (const name of Object.keys(req)) assert.ok(name in doc.components.securitySchemes, `${method} ${path}: ${name}`);
    }
    assert.deepEqual(doc.paths['/operator/v1/metrics']?.get?.security, [{ operator: [] }]);
  });

  test('security-defined: every operation declares its security; signing in, accepting an invitation and resetting a password need none ([])', () => {
    const missing = operations()
      .filter(({ op }) => !Array.isArray(op.security))
      .map(({ path, method }) => `${method} ${path}`);
    assert.deepEqual(missing, []);
    for (const api of ['portal', 'operator']) {
      for (const path of [
        `/${api}/v1/session`,
        `/${api}/v1/invitations/accept`,
        `/${api}/v1/password-reset`,
        `/${api}/v1/password-reset/complete`,
      ])
        assert.deepEqual(doc.paths[path]?.post?.security, [], `POST ${path}`);
    }
  });

  test('every operation answers a 2xx and a 4xx, and declares its path parameters', () => {
    for (const { path, method, op } of operations()) {
      const codes = Object.keys((op.responses ?? {}) as object);
      assert.ok(
        codes.some((c) => /^2/.test(c)),
        `${method} ${path}: no 2xx`,
      );
      assert.ok(
        codes.some((c) => /^4/.test(c)),
        `${method} ${path}: no 4xx`,
      );
      const declared = ((op.parameters ?? []) as Array<{ in: string; name: string }>)
        .filter((p) => p.in === 'path')
        .map((p) => p.name)
        .sort();
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      assert.deepEqual(declared, inPath, `${method} ${path}: path parameters`);
    }
  });
});
