import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends, listAssets, makeHarness, seedOrg, type Harness, type Res } from './harness.ts';

/** The body of a 401 without the two fields that legitimately differ per call. */
const stable = (r: Res) => {
  const { timestamp: _t, traceId: _id, ...rest } = r.body;
  return JSON.stringify(rest);
};

for (const backend of backends()) {
  describe(`authentication and permissions [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
      await listAssets(h, { USD: 2 });
    });
    after(async () => h?.close());

    test('every cause of 401 answers the same body', async () => {
      const good = await seedOrg(h);
      const revoked = await seedOrg(h);
      assert.equal((await h.op('POST', `/api-keys/${revoked.keyId}/revoke`)).status, 200);
      const expiring = await seedOrg(h);
      // A key cannot be issued already expired (422): issue one that expires later, then let its time pass.
      const exp = await h.op('POST', `/members/${expiring.memberId}/api-keys`, {
        scopes: ['portal:read'],
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
      });
      await h.store.db
        .updateTable('api_keys')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('id', '=', exp.body.data.id)
        .execute();
      const ipBound = await h.op('POST', `/members/${good.memberId}/api-keys`, { scopes: ['portal:read'], allowedIps: ['10.9.8.7'] });
      const [tag, rest] = good.key.split('_live_') as [string, string];
      const [prefix] = rest.split('.') as [string];
      const causes: Record<string, Record<string, string>> = {
        missing: {},
        garbage: { 'x-api-key': 'hello' },
        unknownPrefix: { 'x-api-key': `${tag}_live_zzzzzzzzzzzz.${'A'.repeat(43)}` },
        wrongSecret: { 'x-api-key': `${tag}_live_${prefix}.${'B'.repeat(43)}` },
        wrongTag: { 'x-api-key': `zzz_live_${rest}` },
        revoked: { 'x-api-key': revoked.key },
        expired: { 'x-api-key': exp.body.data.key },
        ipNotAllowed: { 'x-api-key': ipBound.body.data.key },
        badBearer: { authorization: 'Bearer nope' },
      };
      const bodies = new Set<string>();
      for (const [cause, headers] of Object.entries(causes)) {
        const r = await h.call(null, 'GET', '/client', undefined, headers);
        assert.equal(r.status, 401, cause);
        assert.equal(r.body.code, 'auth.unauthenticated', cause);
        assert.equal(r.body.data, null);
        assert.ok(r.body.traceId);
        bodies.add(stable(r));
      }
      assert.equal(bodies.size, 1, `401 bodies differ: ${[...bodies].join('\n')}`);
      // the good key works through both headers
      assert.equal((await h.call(good.key, 'GET', '/client')).status, 200);
      assert.equal((await h.call(null, 'GET', '/client', undefined, { authorization: `Bearer ${good.key}` })).status, 200);
    });

    test('a role reduction removes the permission on the very next request', async () => {
      const o = await seedOrg(h, { balances: { USD: 100n } });
      assert.equal((await h.call(o.key, 'GET', '/balances')).status, 200);
      const p = await h.op('PATCH', `/members/${o.memberId}`, { permissions: ['portal:trade'] });
      assert.equal(p.status, 200);
      const r = await h.call(o.key, 'GET', '/balances');
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'auth.scope_missing');
      assert.match(r.body.message!, /portal:read/);
      const c = await h.call(o.key, 'GET', '/client');
      assert.deepEqual(c.body.data.permissions, ['portal:trade']);
      // and restoring it restores the key
      await h.op('PATCH', `/members/${o.memberId}`, { permissions: ['portal:read', 'portal:trade'] });
      assert.equal((await h.call(o.key, 'GET', '/balances')).status, 200);
    });

    test('a key carries only what both its scopes and the role allow', async () => {
      const o = await seedOrg(h, { scopes: ['portal:read', 'portal:trade', 'portal:withdraw'] });
      await h.op('PATCH', `/members/${o.memberId}`, { permissions: ['portal:read', 'portal:api_keys'] });
      const c = await h.call(o.key, 'GET', '/client');
      assert.deepEqual(c.body.data.permissions, ['portal:read']);
    });

    test("the operator cannot issue a key wider than the member's role (as the portal cannot): 403 keys.scope_too_wide", async () => {
      const o = await seedOrg(h, { permissions: ['portal:read', 'portal:api_keys'], scopes: ['portal:read'] });
      const r = await h.op('POST', `/members/${o.memberId}/api-keys`, { scopes: ['portal:read', 'portal:trade'] });
      assert.deepEqual([r.status, r.body.code], [403, 'keys.scope_too_wide']);
      assert.match(String(r.body.message), /portal:trade/);
      const keys = await h.op('GET', `/organizations/${o.orgId}/api-keys`);
      if (keys.status === 200) assert.equal(keys.body.data.length, 1, 'nothing was issued');
      // the role grows later: no key of the member gained the scope
      await h.op('PATCH', `/members/${o.memberId}`, { permissions: ['portal:read', 'portal:api_keys', 'portal:trade'] });
      assert.deepEqual((await h.call(o.key, 'GET', '/client')).body.data.permissions, ['portal:read']);
    });

    test('a member without portal:api_keys cannot be issued a key', async () => {
      const o = await seedOrg(h);
      const m = await h.op('POST', `/organizations/${o.orgId}/members`, {
        name: 'N',
        email: 'no-keys@x.test',
        permissions: ['portal:read'],
      });
      const r = await h.op('POST', `/members/${m.body.data.id}/api-keys`, { scopes: ['portal:read'] });
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'keys.issuer_lacks_permission');
    });

    test('GET /client works for an organization that cannot operate, and says so', async () => {
      const draft = await seedOrg(h, { status: 'draft' });
      const noLimits = await seedOrg(h, { limits: null });
      for (const o of [draft, noLimits]) {
        const r = await h.call(o.key, 'GET', '/client');
        assert.equal(r.status, 200);
        assert.equal(r.body.data.canOperate, false);
      }
      const act = await h.op('PATCH', `/organizations/${noLimits.orgId}`, { limits: {} });
      assert.equal(act.body.data.canOperate, true);
      assert.equal((await h.call(noLimits.key, 'GET', '/client')).body.data.canOperate, true);
    });

    test('the operator API refuses a wrong or missing token with the same 401', async () => {
      const a = await h.app.inject({ method: 'GET', url: '/operator/v1/audit', headers: { authorization: 'Bearer wrong' } });
      const b = await h.app.inject({ method: 'GET', url: '/operator/v1/audit' });
      assert.equal(a.statusCode, 401);
      assert.equal(b.statusCode, 401);
      assert.equal(a.json().code, 'auth.unauthenticated');
    });

    test('every operator change is in the audit trail with before and after', async () => {
      const o = await seedOrg(h);
      await h.op('PATCH', `/organizations/${o.orgId}`, { status: 'suspended' });
      const r = await h.op('GET', `/audit?subjectId=${o.orgId}&limit=100`);
      const upd = r.body.data.find((a: { action: string }) => a.action === 'organization.update');
      assert.equal(upd.before.status, 'active');
      assert.equal(upd.after.status, 'suspended');
      assert.equal(upd.actor, 'bootstrap');
      assert.ok(r.body.data.some((a: { action: string }) => a.action === 'organization.create'));
    });
  });
}
