import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends, makeHarness, seedOrg, signedInMember, withCookie, type Harness } from './harness.ts';

const trail = async (h: Harness, subjectId: string) =>
  (await h.op('GET', `/audit?subjectId=${subjectId}`)).body.data.map((x: { action: string }) => x.action) as string[];

// The team's and the keys' rules are judged on the row locked in the use case's transaction: in the order
// a caller meets them, and a refusal writes nothing (no audit entry).
for (const backend of backends()) {
  describe(`team and key rules [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
    });
    after(async () => h?.close());

    test('a removed member: removed once (keys revoked, audited once), then 409 members.removed for a new role or a second removal', async () => {
      const o = await seedOrg(h);
      const lead = await signedInMember(h, o.orgId);
      const gone = await signedInMember(h, o.orgId, ['portal:read', 'portal:api_keys']);
      const k = await withCookie(h, gone.cookie, 'POST', '/portal/v1/api-keys', { scopes: ['portal:read'] });
      assert.equal(k.status, 201, k.raw);
      const r = await withCookie(h, lead.cookie, 'DELETE', `/portal/v1/team/members/${gone.memberId}`);
      assert.deepEqual([r.status, r.body.data.status], [200, 'removed']);
      const removal = (await h.op('GET', `/audit?subjectId=${gone.memberId}`)).body.data.find(
        (x: { action: string }) => x.action === 'member.remove',
      );
      assert.deepEqual(removal.after, { status: 'removed', keysRevoked: [k.body.data.id] });
      assert.equal((await h.call(k.body.data.key, 'GET', '/balances')).status, 401);
      const again = await withCookie(h, lead.cookie, 'DELETE', `/portal/v1/team/members/${gone.memberId}`);
      assert.deepEqual([again.status, again.body.code], [409, 'members.removed']);
      const role = await withCookie(h, lead.cookie, 'PATCH', `/portal/v1/team/members/${gone.memberId}`, { permissions: ['portal:read'] });
      assert.deepEqual([role.status, role.body.code], [409, 'members.removed']);
      const actions = await trail(h, gone.memberId);
      assert.deepEqual(
        [actions.filter((x) => x === 'member.remove').length, actions.includes('member.permissions')],
        [1, false],
        actions.join(', '),
      );
    });

    test("another organization's member is not found before any other rule; a member with a wider role is neither re-roled nor removed", async () => {
      const o = await seedOrg(h);
      const lead = await signedInMember(h, o.orgId, ['portal:read', 'portal:team']);
      const other = await seedOrg(h);
      let r = await withCookie(h, lead.cookie, 'PATCH', `/portal/v1/team/members/${other.memberId}`, { permissions: ['portal:withdraw'] });
      assert.deepEqual([r.status, r.body.code], [404, 'members.not_found']);
      r = await withCookie(h, lead.cookie, 'DELETE', `/portal/v1/team/members/${other.memberId}`);
      assert.deepEqual([r.status, r.body.code], [404, 'members.not_found']);
      r = await withCookie(h, lead.cookie, 'PATCH', `/portal/v1/team/members/${o.memberId}`, { permissions: ['portal:read'] });
      assert.deepEqual([r.status, r.body.code], [403, 'members.permissions_too_wide']);
      r = await withCookie(h, lead.cookie, 'DELETE', `/portal/v1/team/members/${o.memberId}`);
      assert.deepEqual([r.status, r.body.code], [403, 'members.permissions_too_wide']);
      r = await withCookie(h, lead.cookie, 'POST', `/portal/v1/team/members/${o.memberId}/invitation`);
      assert.deepEqual([r.status, r.body.code], [403, 'members.permissions_too_wide']);
      assert.deepEqual(await trail(h, o.memberId), ['member.create']);
      assert.deepEqual(await trail(h, other.memberId), ['member.create']);
    });

    test('a key revoked twice answers its first revocation and is audited once; an unknown key is not found', async () => {
      const o = await seedOrg(h);
      const first = await h.op('POST', `/api-keys/${o.keyId}/revoke`);
      assert.equal(first.status, 200, first.raw);
      const second = await h.op('POST', `/api-keys/${o.keyId}/revoke`);
      assert.deepEqual([second.status, second.body.data.revokedAt], [200, first.body.data.revokedAt]);
      assert.deepEqual(await trail(h, o.keyId), ['api_key.revoke', 'api_key.issue']);
      const none = await h.op('POST', '/api-keys/key_nope/revoke');
      assert.deepEqual([none.status, none.body.code], [404, 'keys.not_found']);
    });

    test('the operator issues no key to a member without portal:api_keys, nor one wider than the role; nothing is written', async () => {
      const o = await seedOrg(h);
      const m = await h.op('POST', `/organizations/${o.orgId}/members`, { name: 'Ro', email: 'ro@x.test', permissions: ['portal:read'] });
      let r = await h.op('POST', `/members/${m.body.data.id}/api-keys`, { scopes: ['portal:read'] });
      assert.deepEqual([r.status, r.body.code], [403, 'keys.issuer_lacks_permission']);
      const k = await h.op('POST', `/organizations/${o.orgId}/members`, {
        name: 'Ka',
        email: 'ka@x.test',
        permissions: ['portal:read', 'portal:api_keys'],
      });
      r = await h.op('POST', `/members/${k.body.data.id}/api-keys`, { scopes: ['portal:read', 'portal:trade'] });
      assert.deepEqual([r.status, r.body.code], [403, 'keys.scope_too_wide']);
      r = await h.op('POST', '/members/mem_nope/api-keys', { scopes: ['portal:read'] });
      assert.deepEqual([r.status, r.body.code], [404, 'members.not_found']);
      const keys = (await h.op('GET', `/organizations/${o.orgId}/api-keys`)).body.data as Array<{ issuedBy: { id: string } }>;
      assert.deepEqual(
        keys.map((x) => x.issuedBy.id),
        [o.memberId],
      );
    });
  });
}
