import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ALL_PERMISSIONS, listAssets, makeHarness, OPERATOR_TOKEN, seedOrg, type Harness, type SeededOrg } from './harness.ts';

/** Credentials at their edges, tried from outside. */
describe('credentials at their edges', () => {
  let h: Harness;
  let a: SeededOrg;
  let b: SeededOrg;
  before(async () => {
    h = await makeHarness();
    await listAssets(h, { USD: 2 });
    a = await seedOrg(h, { name: 'A' });
    b = await seedOrg(h, { name: 'B' });
  });
  after(async () => h?.close());

  test('X-API-Key and Bearer carrying different keys are 401; the same key in both is accepted', async () => {
    const both = await h.call(a.key, 'GET', '/client', undefined, { authorization: `Bearer ${b.key}` });
    assert.equal(both.status, 401);
    assert.equal(both.body.code, 'auth.unauthenticated');
    const other = await h.call(b.key, 'GET', '/client', undefined, { authorization: `Bearer ${a.key}` });
    assert.equal(other.status, 401);
    const same = await h.call(a.key, 'GET', '/client', undefined, { authorization: `Bearer ${a.key}` });
    assert.equal(same.status, 200);
    assert.equal(same.body.data.id, a.orgId);
  });

  test('a malformed X-Operator is 400 auth.operator_name_invalid and changes nothing; a valid one is accepted', async () => {
    const before = (await h.op('GET', '/audit?limit=1')).body.pagination.total;
    for (const bad of ['', 'x'.repeat(65), 'ana<script>', 'ana, bob', 'ñandú']) {
      const r = await h.app.inject({
        method: 'POST',
        url: `/organizations/${a.orgId}/adjustments`.replace(/^/, '/operator/v1'),
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'x-operator': bad, 'content-type': 'application/json', 'x-lang': 'en' },
        payload: JSON.stringify({ assetSymbol: 'USD', amountMinor: '5', reason: 'x' }),
      });
      assert.equal(r.statusCode, 400, `${JSON.stringify(bad)}: ${r.body}`);
      assert.equal(r.json().code, 'auth.operator_name_invalid');
    }
    assert.equal((await h.op('GET', '/audit?limit=1')).body.pagination.total, before, 'nothing was written');
    const good = await h.app.inject({
      method: 'POST',
      url: `/operator/v1/organizations/${a.orgId}/adjustments`,
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'x-operator': 'ana@desk', 'content-type': 'application/json' },
      payload: JSON.stringify({ assetSymbol: 'USD', amountMinor: '5', reason: 'x' }),
    });
    assert.equal(good.statusCode, 201, good.body);
  });

  test('a key whose expiresAt is already past (or now) is refused with 422 and nothing is issued', async () => {
    const mem = await h.op('POST', `/organizations/${a.orgId}/members`, { name: 'E', email: 'e@x.test', permissions: ALL_PERMISSIONS });
    const before = (await h.op('GET', '/audit?limit=1&action=api_key.issue')).body.pagination.total;
    for (const expiresAt of [new Date(Date.now() - 60_000).toISOString(), '2001-01-01T00:00:00Z']) {
      const r = await h.op('POST', `/members/${mem.body.data.id}/api-keys`, { scopes: ['portal:read'], expiresAt });
      assert.equal(r.status, 422, r.raw);
      assert.equal(r.body.code, 'keys.expiry_in_past');
    }
    assert.equal((await h.op('GET', '/audit?limit=1&action=api_key.issue')).body.pagination.total, before);
    const future = await h.op('POST', `/members/${mem.body.data.id}/api-keys`, {
      scopes: ['portal:read'],
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    assert.equal(future.status, 201);
  });
});
