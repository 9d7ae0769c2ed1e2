import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { totpCode } from '../src/domain/people/totp.ts';
import {
  ALL_PERMISSIONS,
  backends,
  btcUsdMarket,
  makeHarness,
  PASSWORD,
  seedOrg,
  signedInMember,
  signedInStaff,
  withCookie,
  type Harness,
} from './harness.ts';

/** Inputs that once ended in a 500 (rolled back, but a defect): each now has a clear answer. */
for (const backend of backends()) {
  describe(`input edges [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
      await btcUsdMarket(h);
    });
    after(async () => h?.close());

    test('a lone UTF-16 surrogate in any text is 422 request.invalid_text, and nothing is stored', async () => {
      const o = await seedOrg(h, { permissions: ALL_PERMISSIONS, scopes: ['portal:read', 'portal:webhooks'] as string[] });
      const staff = await signedInStaff(h, 'admin');
      const member = await signedInMember(h, o.orgId);
      // Raw bodies: JSON.stringify would escape the surrogate the same way, but the point is the wire text.
      const raw = (name: string) => `{"name":"Ana \\ud800","email":"${name}@surrogate.test","permissions":[]}`;
      const answers = {
        'member name (operator)': await h.app.inject({
          method: 'POST',
          url: `/operator/v1/organizations/${o.orgId}/members`,
          headers: { authorization: 'Bearer test-operator-token-0123456789', 'content-type': 'application/json', 'x-lang': 'en' },
          payload: raw('op'),
        }),
        'member name (portal)': await h.app.inject({
          method: 'POST',
          url: '/portal/v1/team/members',
          headers: { cookie: member.cookie, origin: 'http://127.0.0.1:8080', 'content-type': 'application/json', 'x-lang': 'en' },
          payload: raw('portal'),
        }),
        'staff token name': await h.app.inject({
          method: 'POST',
          url: '/operator/v1/tokens',
          headers: { cookie: staff.cookie, origin: 'http://127.0.0.1:8080', 'content-type': 'application/json', 'x-lang': 'en' },
          payload: '{"name":"\\udfff token"}',
        }),
        'adjustment reason': await h.app.inject({
          method: 'POST',
          url: `/operator/v1/organizations/${o.orgId}/adjustments`,
          headers: { authorization: 'Bearer test-operator-token-0123456789', 'content-type': 'application/json', 'x-lang': 'en' },
          payload: '{"assetSymbol":"USD","amountMinor":"100","reason":"bonus \\ud83d"}',
        }),
        'webhook url (client key)': await h.app.inject({
          method: 'POST',
          url: '/api/v1/webhooks',
          headers: { 'x-api-key': o.key, 'content-type': 'application/json', 'x-lang': 'en' },
          payload: '{"url":"https://hooks.example/\\udc00"}',
        }),
      };
      for (const [what, r] of Object.entries(answers))
        assert.deepEqual([r.statusCode, r.json().code], [422, 'request.invalid_text'], `${what}: ${r.body}`);
      assert.match(answers['adjustment reason'].json().message, /reason/);
      // nothing was written: no member, token, adjustment or webhook
      const team = await withCookie(h, member.cookie, 'GET', '/portal/v1/team/members');
      assert.ok(!team.body.data.some((m: { email: string }) => m.email.endsWith('@surrogate.test')));
      assert.equal(
        (await h.call(o.key, 'GET', '/balances')).body.data.find((b: { assetSymbol: string }) => b.assetSymbol === 'USD')?.amountMinor ??
          '0',
        '0',
      );
      assert.deepEqual((await h.call(o.key, 'GET', '/webhooks')).body.data, []);
      // a well-formed pair (an emoji) is text like any other
      const ok = await h.op('POST', `/organizations/${o.orgId}/members`, {
        name: 'Ana \ud83d\ude00',
        email: 'emoji@surrogate.test',
        permissions: [],
      });
      assert.deepEqual([ok.status, ok.body.data.name], [201, 'Ana \ud83d\ude00']);
    });

    test("a removed member's email can be invited again, and the person signs in to the new membership", async () => {
      const o = await seedOrg(h);
      const p = await signedInMember(h, o.orgId, ['portal:read']);
      const admin = await signedInMember(h, o.orgId);
      const removed = await withCookie(h, admin.cookie, 'DELETE', `/portal/v1/team/members/${p.memberId}`);
      assert.deepEqual([removed.status, removed.body.data.status], [200, 'removed']);
      const again = await h.op('POST', `/organizations/${o.orgId}/members`, {
        name: 'Back again',
        email: p.email,
        permissions: ['portal:read'],
      });
      assert.equal(again.status, 201, again.raw);
      assert.notEqual(again.body.data.id, p.memberId);
      const dup = await h.op('POST', `/organizations/${o.orgId}/members`, { name: 'Twice', email: p.email, permissions: [] });
      assert.deepEqual([dup.status, dup.body.code], [409, 'members.email_taken']);
      const token = (again.body.data.invitation.url as string).split('#')[1];
      const accept = await h.app.inject({
        method: 'POST',
        url: '/portal/v1/invitations/accept',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ token, password: 'a brand new phrase 9' }),
      });
      assert.equal(accept.statusCode, 200, accept.body);
      const signIn = await h.app.inject({
        method: 'POST',
        url: '/portal/v1/session',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: p.email, password: 'a brand new phrase 9' }),
      });
      assert.deepEqual([signIn.statusCode, signIn.json().data.member.id], [200, again.body.data.id]);
      const old = await h.app.inject({
        method: 'POST',
        url: '/portal/v1/session',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: p.email, password: PASSWORD }),
      });
      assert.equal(old.statusCode, 401, 'the removed membership does not sign in');
    });

    test('a four-eyes policy removed after a first approval: the next approval decides the order, by the same person too', async () => {
      assert.equal((await h.op('PUT', '/policies/approvals/BTC', { secondApprovalFromMinor: '1000000' })).status, 200);
      const o = await seedOrg(h, { balances: { BTC: 10_000_000n } });
      const ana = await signedInStaff(h, 'approver');
      const approve = (id: string) =>
        withCookie(h, ana.cookie, 'POST', `/operator/v1/orders/${id}/approve`, {}, { 'x-totp': totpCode(ana.totpSecret!, h.clock.now()) });
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '2000000' });
      const order = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
      assert.equal(order.status, 201, order.raw);
      const first = await approve(order.body.data.id);
      assert.equal(first.status, 200, first.raw);
      assert.equal(first.body.data.state, 'pending_approval', first.raw);
      assert.equal((await h.op('PUT', '/policies/approvals/BTC', { secondApprovalFromMinor: null })).status, 200);
      const second = await approve(order.body.data.id);
      assert.equal(second.status, 200, second.raw);
      assert.equal(second.body.data.state, 'completed', second.raw);
      assert.deepEqual(
        second.body.data.approvals.map((a: { staffId: string }) => a.staffId),
        [ana.staffId],
      );
    });
  });
}
