import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ALL_PERMISSIONS,
  ALL_SCOPES,
  backends,
  makeHarness,
  seedOrg,
  signedInStaff,
  withCookie,
  type Harness,
  type SeededOrg,
} from './harness.ts';

// The desk reads an organization's members and API keys (any staff role): as the portal lists them, never a secret.
for (const backend of backends()) {
  describe(`operator reads of an organization's people [${backend}]`, () => {
    let h: Harness;
    let org: SeededOrg;
    let other: SeededOrg;
    let viewer: { cookie: string };
    before(async () => {
      h = await makeHarness({ backend });
      org = await seedOrg(h, { name: 'Acme' });
      other = await seedOrg(h, { name: 'Other', permissions: ['portal:read', 'portal:api_keys'], scopes: ['portal:read'] });
      viewer = await signedInStaff(h, 'viewer');
    });
    after(async () => {
      await h.close();
    });

    test("members: each with its permissions, status and two-step state; only this organization's", async () => {
      const r = await h.op('GET', `/organizations/${org.orgId}/members`);
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.length, 1);
      const [m] = r.body.data;
      assert.deepEqual([m.id, m.name, m.permissions, m.status, m.totpEnrolled], [org.memberId, 'M', ALL_PERMISSIONS, 'invited', false]);
      assert.match(m.email, /@x\.test$/);
      assert.deepEqual(Object.keys(m).sort(), ['createdAt', 'email', 'id', 'name', 'permissions', 'status', 'totpEnrolled']);
      const o = await h.op('GET', `/organizations/${other.orgId}/members`);
      assert.deepEqual(
        o.body.data.map((x: { id: string; permissions: string[] }) => [x.id, x.permissions]),
        [[other.memberId, ['portal:read', 'portal:api_keys']]],
      );
    });

    test("keys: prefix, scopes, issuer, never the secret; a revoked key says when; only this organization's", async () => {
      const r = await h.op('GET', `/organizations/${org.orgId}/api-keys`);
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.length, 1);
      const [k] = r.body.data;
      assert.deepEqual([k.id, k.scopes, k.issuedBy.id, k.revokedAt, k.lastUsedAt], [org.keyId, ALL_SCOPES, org.memberId, null, null]);
      assert.ok(org.key.includes(`_live_${k.prefix}.`), "the prefix is the key's own");
      assert.ok(!r.raw.includes(org.key.split('.')[1]!), 'the secret part of the key is never listed');
      assert.equal((await h.call(org.key, 'GET', '/balances')).status, 200);
      assert.equal((await h.op('POST', `/api-keys/${org.keyId}/revoke`)).status, 200);
      const after = (await h.op('GET', `/organizations/${org.orgId}/api-keys`)).body.data[0];
      assert.match(after.revokedAt, /^\d{4}-\d\d-\d\dT/);
      assert.notEqual(after.lastUsedAt, null, 'the use before the revocation is shown');
      const o = await h.op('GET', `/organizations/${other.orgId}/api-keys`);
      assert.deepEqual(
        o.body.data.map((x: { id: string; revokedAt: string | null }) => [x.id, x.revokedAt]),
        [[other.keyId, null]],
      );
    });

    test('an unknown organization is 404 organizations.not_found; no credential is 401', async () => {
      for (const path of ['members', 'api-keys']) {
        const r = await h.op('GET', `/organizations/org_nope/${path}`);
        assert.deepEqual([r.status, r.body.code], [404, 'organizations.not_found']);
        const anon = await h.app.inject({ method: 'GET', url: `/operator/v1/organizations/${org.orgId}/${path}` });
        assert.equal(anon.statusCode, 401);
      }
    });

    test("a viewer reads both lists; inviting a member, changing a role or revoking a key is the admin's and changes nothing", async () => {
      const members = await withCookie(h, viewer.cookie, 'GET', `/operator/v1/organizations/${other.orgId}/members`);
      const keys = await withCookie(h, viewer.cookie, 'GET', `/operator/v1/organizations/${other.orgId}/api-keys`);
      assert.deepEqual([members.status, keys.status], [200, 200]);
      const refused = [
        await withCookie(h, viewer.cookie, 'POST', `/operator/v1/organizations/${other.orgId}/members`, {
          name: 'X',
          email: 'x@x.test',
          permissions: ['portal:read'],
        }),
        await withCookie(h, viewer.cookie, 'PATCH', `/operator/v1/members/${other.memberId}`, { permissions: ALL_PERMISSIONS }),
        await withCookie(h, viewer.cookie, 'POST', `/operator/v1/api-keys/${other.keyId}/revoke`),
      ];
      assert.deepEqual(
        refused.map((r) => [r.status, r.body.code]),
        Array(3).fill([403, 'auth.role_missing']),
      );
      assert.deepEqual(
        (await withCookie(h, viewer.cookie, 'GET', `/operator/v1/organizations/${other.orgId}/members`)).body.data,
        members.body.data,
      );
      assert.deepEqual(
        (await withCookie(h, viewer.cookie, 'GET', `/operator/v1/organizations/${other.orgId}/api-keys`)).body.data,
        keys.body.data,
      );
    });
  });
}
