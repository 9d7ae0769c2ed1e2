import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { backends, cookieFrom, listAssets, makeHarness, PASSWORD, seedOrg, signedInMember, withCookie, type Harness } from './harness.ts';

const post = (h: Harness, url: string, body: unknown) =>
  h.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', 'x-lang': 'en' }, payload: JSON.stringify(body) });

for (const backend of backends()) {
  describe(`passwords and the cost of a sign-in [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
      await listAssets(h, { USD: 2 });
    });
    after(async () => h?.close());

    /** Invites `email` into a new organization and accepts with `password`. */
    const member = async (email: string, password: string) => {
      const o = await seedOrg(h);
      const m = await h.op('POST', `/organizations/${o.orgId}/members`, { name: 'Same Person', email, permissions: ['portal:read'] });
      assert.equal(m.status, 201, m.raw);
      const r = await post(h, '/portal/v1/invitations/accept', { token: m.body.data.invitation.url.split('#')[1], password });
      assert.equal(r.statusCode, 200, r.body);
      return { orgId: o.orgId, memberId: m.body.data.id as string };
    };

    test('a sign-in derives one key whether its email has no account, one, or three (each with its own password)', async () => {
      await member('one@same.test', 'first secret words 1');
      for (const [i, pw] of ['first secret words 2', 'second secret words 2', 'third secret words 2'].entries())
        await member('three@same.test', pw).then(() => i);
      const real = crypto.scrypt;
      let derivations = 0;
      crypto.scrypt = ((...args: Parameters<typeof crypto.scrypt>) => {
        derivations++;
        return (real as (...a: unknown[]) => void)(...args);
      }) as typeof crypto.scrypt;
      syncBuiltinESMExports();
      const cost: Record<string, number> = {};
      try {
        for (const [label, email, password, status] of [
          ['none', 'nobody@same.test', 'wrong guess words', 401],
          ['one', 'one@same.test', 'wrong guess words', 401],
          ['three', 'three@same.test', 'wrong guess words', 401],
          ['three, the second right', 'three@same.test', 'second secret words 2', 200],
        ] as const) {
          derivations = 0;
          const r = await post(h, '/portal/v1/session', { email, password });
          assert.equal(r.statusCode, status, `${label}: ${r.body}`);
          cost[label] = derivations;
        }
      } finally {
        crypto.scrypt = real;
        syncBuiltinESMExports();
      }
      assert.deepEqual(cost, { none: 1, one: 1, three: 1, 'three, the second right': 1 });
    });

    test("each of an email's accounts still signs in with its own password", async () => {
      const a = await member('both@same.test', 'alpha secret words');
      const b = await member('both@same.test', 'bravo secret words');
      const ra = await post(h, '/portal/v1/session', { email: 'both@same.test', password: 'alpha secret words' });
      const rb = await post(h, '/portal/v1/session', { email: 'both@same.test', password: 'bravo secret words' });
      assert.deepEqual([ra.statusCode, ra.json().data.organization.id], [200, a.orgId]);
      assert.deepEqual([rb.statusCode, rb.json().data.organization.id], [200, b.orgId]);
    });

    test('an invitation refuses a repetitive password and one holding the email', async () => {
      const o = await seedOrg(h);
      const m = await h.op('POST', `/organizations/${o.orgId}/members`, { name: 'Rita', email: 'rita.lopez@acme.test', permissions: [] });
      const token = m.body.data.invitation.url.split('#')[1];
      for (const [pw, code] of [
        ['abcdabcdabcd', 'auth.password_repetitive'],
        ['Tr0ub4dorTr0ub4dor', 'auth.password_repetitive'],
        ['rita.lopez@acme.test', 'auth.password_contains_email'],
        ['my name is RITA.LOPEZ ok', 'auth.password_contains_email'],
      ] as const) {
        const r = await post(h, '/portal/v1/invitations/accept', { token, password: pw });
        assert.deepEqual([r.statusCode, r.json().code], [422, code], pw);
      }
      const ok = await post(h, '/portal/v1/invitations/accept', { token, password: PASSWORD });
      assert.equal(ok.statusCode, 200, ok.body);
    });

    test('a password change refuses the current password, the email and a repetitive one; the password stays', async () => {
      const o = await seedOrg(h);
      const p = await signedInMember(h, o.orgId);
      for (const [pw, code] of [
        [PASSWORD, 'auth.password_unchanged'],
        [`${p.email}!`, 'auth.password_contains_email'],
        ['uvwxyzuvwxyz', 'auth.password_repetitive'],
      ] as const) {
        const r = await withCookie(h, p.cookie, 'POST', '/portal/v1/password', { currentPassword: PASSWORD, newPassword: pw });
        assert.deepEqual([r.status, r.body.code], [422, code], pw);
      }
      const again = await post(h, '/portal/v1/session', { email: p.email, password: PASSWORD });
      assert.equal(again.statusCode, 200);
      const changed = await withCookie(h, cookieFrom(again), 'POST', '/portal/v1/password', {
        currentPassword: PASSWORD,
        newPassword: 'a different phrase 7',
      });
      assert.equal(changed.status, 200, changed.raw);
    });
  });
}
