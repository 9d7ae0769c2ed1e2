import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends, listAssets, makeHarness, ORIGIN, seedOrg, signedInMember, withCookie, type Harness } from './harness.ts';

for (const backend of backends()) {
  describe(`credentials that disagree, and answers kept for one member [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
      await listAssets(h, { USD: 2 });
    });
    after(async () => h?.close());

    test('X-API-Key and Bearer that differ are 401 even with a member cookie; a bad key beside a cookie is 401 too', async () => {
      const o = await seedOrg(h);
      const other = await seedOrg(h);
      const p = await signedInMember(h, o.orgId);
      const get = (headers: Record<string, string>) =>
        h.app.inject({ method: 'GET', url: '/api/v1/client', headers: { 'x-lang': 'en', ...headers } });
      const cases: Record<string, Record<string, string>> = {
        'two different keys': { 'x-api-key': o.key, authorization: `Bearer ${other.key}` },
        'two different keys and a cookie': { 'x-api-key': o.key, authorization: `Bearer ${other.key}`, cookie: p.cookie },
        'a malformed key and a cookie': { 'x-api-key': 'hello', cookie: p.cookie },
        'an empty key header and a cookie': { 'x-api-key': '', cookie: p.cookie },
        'a Bearer of nothing and a cookie': { authorization: 'Bearer ', cookie: p.cookie },
      };
      for (const [what, headers] of Object.entries(cases)) {
        const r = await get(headers);
        assert.deepEqual([r.statusCode, r.json().code], [401, 'auth.unauthenticated'], what);
      }
      // each alone still works
      assert.equal((await get({ cookie: p.cookie })).statusCode, 200);
      assert.equal((await get({ 'x-api-key': o.key, authorization: `Bearer ${o.key}` })).statusCode, 200);
    });

    test("one Idempotency-Key and body from two members of one organization: the second never gets the first one's webhook secret", async () => {
      const o = await seedOrg(h, { scopes: ['portal:read', 'portal:webhooks'] });
      const ana = await signedInMember(h, o.orgId);
      const bea = await signedInMember(h, o.orgId);
      const body = { url: 'https://hooks.example.test/same' };
      const headers = { 'idempotency-key': 'shared-key-1', origin: ORIGIN };
      const first = await withCookie(h, ana.cookie, 'POST', '/api/v1/webhooks', body, headers);
      assert.equal(first.status, 201, first.raw);
      assert.match(first.body.data.secret, /^whsec_/);
      const replay = await withCookie(h, ana.cookie, 'POST', '/api/v1/webhooks', body, headers);
      assert.deepEqual(
        [replay.status, replay.headers['idempotent-replayed'], replay.body.data.secret],
        [201, 'true', first.body.data.secret],
        'the same member still gets the replay',
      );
      const other = await withCookie(h, bea.cookie, 'POST', '/api/v1/webhooks', body, headers);
      assert.deepEqual([other.status, other.body.code], [422, 'idempotency.key_reused'], other.raw);
      assert.ok(!other.raw.includes(first.body.data.secret));
      // through keys too: another member's key with the same Idempotency-Key and body
      const viaKey = await h.call(o.key, 'POST', '/webhooks', body, { 'idempotency-key': 'shared-key-1' });
      assert.deepEqual([viaKey.status, viaKey.body.code], [422, 'idempotency.key_reused']);
      assert.equal((await h.call(o.key, 'GET', '/webhooks')).body.data.length, 1, 'one webhook was made');
    });
  });
}
