import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { totpCode } from '../src/domain/people/totp.ts';
import type { ManualClock } from '../src/domain/ports.ts';
import {
  ALL_PERMISSIONS,
  backends,
  cookieFrom,
  listAssets,
  makeHarness,
  ORIGIN,
  PASSWORD,
  seedOrg,
  signedInMember,
  signedInStaff,
  withCookie,
  type Harness,
} from './harness.ts';

const signIn = (h: Harness, who: 'portal' | 'operator', body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  h.app.inject({
    method: 'POST',
    url: `/${who}/v1/session`,
    headers: { 'content-type': 'application/json', 'x-lang': 'en', ...headers },
    payload: JSON.stringify(body),
  });

for (const backend of backends()) {
  describe(`people [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend, manualClock: true, env: { CAMBIO_SESSION_IDLE_MS: '600000', CAMBIO_SESSION_MAX_MS: '3600000' } });
      await listAssets(h, { USD: 2, BTC: 8 });
    });
    after(async () => h?.close());
    const clock = () => h.clock as ManualClock;

    test('an invitation: shown once as a url with the token in its fragment, accepted once with a strong password, then signed in', async () => {
      const o = await seedOrg(h);
      const m = await h.op('POST', `/organizations/${o.orgId}/members`, {
        name: 'Ana',
        email: 'Ana@Example.test',
        permissions: ['portal:read'],
      });
      assert.equal(m.status, 201, m.raw);
      assert.deepEqual([m.body.data.email, m.body.data.status], ['ana@example.test', 'invited']);
      assert.match(m.body.data.invitation.url, /^http:\/\/127\.0\.0\.1:8080\/portal\/invitation#[A-Za-z0-9_-]{43}$/);
      assert.equal(Date.parse(m.body.data.invitation.expiresAt) - h.clock.now().getTime(), 7 * 86_400_000);
      const token = m.body.data.invitation.url.split('#')[1];
      const accept = (password: string) =>
        h.app.inject({
          method: 'POST',
          url: '/portal/v1/invitations/accept',
          headers: { 'content-type': 'application/json', 'x-lang': 'en' },
          payload: JSON.stringify({ token, password }),
        });
      for (const weak of ['short', 'password1234', '111111111111']) {
        const r = await accept(weak);
        assert.deepEqual([r.statusCode, r.json().code], [422, 'auth.password_weak'], weak);
      }
      const r = await accept(PASSWORD);
      assert.equal(r.statusCode, 200, r.body);
      const set = String(r.headers['set-cookie']);
      assert.match(set, /^cambio_member=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=3600$/, 'no Secure in sandbox');
      assert.deepEqual([r.json().data.member.status, r.json().data.organization.id], ['active', o.orgId]);
      const again = await accept(`${PASSWORD}!`);
      assert.deepEqual([again.statusCode, again.json().code], [410, 'auth.invitation_invalid']);
      const me = await withCookie(h, cookieFrom(r), 'GET', '/portal/v1/session');
      assert.deepEqual([me.status, me.body.data.member.email], [200, 'ana@example.test']);
      // An expired invitation is refused the same way.
      const late = await h.op('POST', `/organizations/${o.orgId}/members`, { name: 'Late', email: 'late@example.test', permissions: [] });
      clock().advance(7 * 86_400_000 + 1);
      const lr = await h.app.inject({
        method: 'POST',
        url: '/portal/v1/invitations/accept',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ token: late.body.data.invitation.url.split('#')[1], password: PASSWORD }),
      });
      assert.deepEqual([lr.statusCode, lr.json().code], [410, 'auth.invitation_invalid']);
    });

    test('sign-in: one answer for an unknown email and a wrong password; rotation; sign-out ends the session at once', async () => {
      const o = await seedOrg(h);
      const p = await signedInMember(h, o.orgId);
      const strip = (b: string) => {
        const { timestamp: _t, traceId: _i, ...rest } = JSON.parse(b);
        return rest;
      };
      const wrong = await signIn(h, 'portal', { email: p.email, password: 'not the password at all' });
      const unknown = await signIn(h, 'portal', { email: 'nobody@x.test', password: 'not the password at all' });
      assert.deepEqual([wrong.statusCode, unknown.statusCode], [401, 401]);
      assert.deepEqual(strip(wrong.body), strip(unknown.body));
      assert.equal(strip(wrong.body).code, 'auth.sign_in_failed');
      // similar time: both derive one scrypt hash
      const time = async (email: string) => {
        const t = process.hrtime.bigint();
        await signIn(h, 'portal', { email, password: 'not the password at all' });
        return process.hrtime.bigint() - t;
      };
      const [a, b] = [await time(p.email), await time('nobody@x.test')];
      assert.ok(b * 3n > a && a * 3n > b, `unknown ${b} ns vs wrong ${a} ns`);

      const first = await signIn(h, 'portal', { email: p.email.toUpperCase(), password: PASSWORD }, { cookie: p.cookie });
      assert.equal(first.statusCode, 200, first.body);
      const c1 = cookieFrom(first);
      assert.notEqual(c1, p.cookie, 'a new id at sign-in');
      assert.equal(
        (await withCookie(h, p.cookie, 'GET', '/portal/v1/session')).status,
        401,
        'the id held before signing in ended (rotation)',
      );
      assert.equal((await withCookie(h, c1, 'GET', '/api/v1/client')).status, 200);
      const out = await withCookie(h, c1, 'DELETE', '/portal/v1/session');
      assert.deepEqual([out.status, out.body.data], [200, { signedOut: true }]);
      assert.match(String(out.headers['set-cookie']), /^cambio_member=; .*Max-Age=0/);
      assert.equal((await withCookie(h, c1, 'GET', '/api/v1/client')).status, 401);
      const trail = (await h.op('GET', `/audit?subjectId=${p.memberId}`)).body.data.map(
        (x: { action: string; actor: string }) => `${x.actor} ${x.action}`,
      );
      assert.ok(trail.includes(`member:${p.memberId} sign_in`) && trail.includes('anonymous sign_in.failed'), trail.join());
    });

    test('throttling: five failures lock the account (429 with Retry-After, the message says when), even for the right password; the lock ends', async () => {
      const o = await seedOrg(h);
      const p = await signedInMember(h, o.orgId);
      for (let i = 0; i < 5; i++)
        assert.equal((await signIn(h, 'portal', { email: p.email, password: `wrong password ${i}` })).statusCode, 401);
      const locked = await signIn(h, 'portal', { email: p.email, password: PASSWORD });
      assert.deepEqual([locked.statusCode, locked.json().code], [429, 'auth.sign_in_locked']);
      assert.equal(locked.headers['retry-after'], '900');
      assert.match(locked.json().message, /try again after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \(in 900 s\)/);
      clock().advance(900_000 + 1);
      assert.equal((await signIn(h, 'portal', { email: p.email, password: PASSWORD })).statusCode, 200);
      // per address: twenty failures on any emails from one address lock that address
      for (let i = 0; i < 20; i++) await signIn(h, 'operator', { email: `nobody${i}@x.test`, password: 'wrong password!!' });
      const addr = await signIn(h, 'operator', { email: 'someone@x.test', password: 'whatever password' });
      assert.deepEqual([addr.statusCode, addr.json().code], [429, 'auth.sign_in_locked']);
      clock().advance(900_000 + 1);
    });

    test('idle and absolute expiry end a session', async () => {
      const o = await seedOrg(h);
      const p = await signedInMember(h, o.orgId);
      clock().advance(600_000);
      assert.equal((await withCookie(h, p.cookie, 'GET', '/api/v1/client')).status, 401, 'idle 10 min');
      const q = await signedInMember(h, o.orgId);
      for (let i = 0; i < 7; i++) {
        clock().advance(500_000);
        assert.equal((await withCookie(h, q.cookie, 'GET', '/api/v1/client')).status, 200, `use ${i}`);
      }
      clock().advance(500_000);
      assert.equal((await withCookie(h, q.cookie, 'GET', '/api/v1/client')).status, 401, 'past the 1 h absolute expiry despite use');
    });

    test("the member cookie on /api/v1 is the member's whole role, re-read each request; an API key header decides over it; removal stops keys and sessions at once", async () => {
      const o = await seedOrg(h, { balances: { USD: 5000n } });
      const p = await signedInMember(h, o.orgId, ['portal:read', 'portal:trade', 'portal:api_keys', 'portal:team']);
      const client = await withCookie(h, p.cookie, 'GET', '/api/v1/client');
      assert.deepEqual(client.body.data.permissions, ['portal:read', 'portal:trade']);
      assert.equal((await withCookie(h, p.cookie, 'GET', '/api/v1/balances')).status, 200);
      assert.equal((await h.op('PATCH', `/members/${p.memberId}`, { permissions: ['portal:trade'] })).status, 200);
      const reduced = await withCookie(h, p.cookie, 'GET', '/api/v1/balances');
      assert.deepEqual([reduced.status, reduced.body.code], [403, 'auth.scope_missing']);
      // a key header present: the key decides (here a wrong one: 401 although the cookie is good)
      assert.equal(
        (await withCookie(h, p.cookie, 'GET', '/api/v1/client', undefined, { 'x-api-key': 'cmb_live_zzzzzzzzzzzz.' + 'A'.repeat(43) }))
          .status,
        401,
      );
      // X-API-Key and a different Bearer: 401
      assert.equal((await h.call(o.key, 'GET', '/client', undefined, { authorization: 'Bearer something-else' })).status, 401);

      const admin = await signedInMember(h, o.orgId);
      const issued = await withCookie(h, p.cookie, 'POST', '/portal/v1/api-keys', { scopes: ['portal:trade'] });
      assert.equal(issued.status, 403, 'portal:api_keys was taken away with the role change');
      assert.equal((await h.op('PATCH', `/members/${p.memberId}`, { permissions: ['portal:read', 'portal:api_keys'] })).status, 200);
      const k = await withCookie(h, p.cookie, 'POST', '/portal/v1/api-keys', { scopes: ['portal:read'] });
      assert.equal(k.status, 201, k.raw);
      assert.equal((await h.call(k.body.data.key, 'GET', '/balances')).status, 200);
      const removed = await withCookie(h, admin.cookie, 'DELETE', `/portal/v1/team/members/${p.memberId}`);
      assert.deepEqual([removed.status, removed.body.data.status], [200, 'removed']);
      assert.equal((await h.call(k.body.data.key, 'GET', '/balances')).status, 401, "the removed member's key stops at once");
      assert.equal((await withCookie(h, p.cookie, 'GET', '/api/v1/client')).status, 401, 'and the session');
      assert.equal((await signIn(h, 'portal', { email: p.email, password: PASSWORD })).statusCode, 401, 'and signing in');
      const self = await withCookie(h, admin.cookie, 'DELETE', `/portal/v1/team/members/${admin.memberId}`);
      assert.deepEqual([self.status, self.body.code], [409, 'members.cannot_remove_self']);
    });

    test('portal API keys: scopes within the role, expiry not past, shown once; listed with issuer and last use; any key of the organization revoked', async () => {
      const o = await seedOrg(h);
      const p = await signedInMember(h, o.orgId, ['portal:read', 'portal:trade', 'portal:api_keys']);
      let r = await withCookie(h, p.cookie, 'POST', '/portal/v1/api-keys', { scopes: ['portal:read', 'portal:withdraw'] });
      assert.deepEqual([r.status, r.body.code], [403, 'keys.scope_too_wide']);
      assert.match(r.body.message!, /portal:withdraw/);
      r = await withCookie(h, p.cookie, 'POST', '/portal/v1/api-keys', {
        scopes: ['portal:read'],
        expiresAt: new Date(h.clock.now().getTime() - 1000).toISOString(),
      });
      assert.deepEqual([r.status, r.body.code], [422, 'keys.expiry_in_past']);
      const expiresAt = new Date(h.clock.now().getTime() + 86_400_000).toISOString();
      r = await withCookie(h, p.cookie, 'POST', '/portal/v1/api-keys', {
        scopes: ['portal:read', 'portal:trade'],
        expiresAt,
        allowedIps: ['127.0.0.1'],
      });
      assert.equal(r.status, 201, r.raw);
      const key: string = r.body.data.key;
      assert.deepEqual(Object.keys(r.body.data).sort(), ['allowedIps', 'createdAt', 'expiresAt', 'id', 'key', 'name', 'prefix', 'scopes']);
      assert.equal((await h.call(key, 'GET', '/balances')).status, 200);
      const list = await withCookie(h, p.cookie, 'GET', '/portal/v1/api-keys');
      const mine = list.body.data.find((x: { id: string }) => x.id === r.body.data.id);
      assert.deepEqual(
        { ...mine, createdAt: 'x' },
        {
          id: r.body.data.id,
          name: null,
          prefix: r.body.data.prefix,
          scopes: ['portal:read', 'portal:trade'],
          issuedBy: { id: p.memberId, name: mine.issuedBy.name },
          createdAt: 'x',
          lastUsedAt: h.clock.now().toISOString(),
          expiresAt,
          allowedIps: ['127.0.0.1'],
          revokedAt: null,
        },
      );
      assert.ok(!list.raw.includes(key.split('.')[1]!), 'the secret is never listed');
      assert.ok(
        list.body.data.some((x: { id: string }) => x.id === o.keyId),
        'every key of the organization is listed',
      );
      const rv = await withCookie(h, p.cookie, 'POST', `/portal/v1/api-keys/${o.keyId}/revoke`);
      assert.deepEqual([rv.status, rv.body.data.revokedAt !== null], [200, true]);
      assert.equal((await h.call(o.key, 'GET', '/client')).status, 401);
      const other = await seedOrg(h);
      const foreign = await withCookie(h, p.cookie, 'POST', `/portal/v1/api-keys/${other.keyId}/revoke`);
      assert.deepEqual([foreign.status, foreign.body.code], [404, 'keys.not_found']);
      assert.equal((await h.call(other.key, 'GET', '/client')).status, 200);
      const trail = (await h.op('GET', `/audit?subjectId=${r.body.data.id}`)).body.data;
      assert.deepEqual(
        trail.map((x: { actor: string; action: string }) => [x.actor, x.action]),
        [[`member:${p.memberId}`, 'api_key.issue']],
      );
    });

    test("team: invite and re-role never wider than one's own; portal:read lists", async () => {
      const o = await seedOrg(h);
      const lead = await signedInMember(h, o.orgId, ['portal:read', 'portal:trade', 'portal:team']);
      let r = await withCookie(h, lead.cookie, 'POST', '/portal/v1/team/members', {
        name: 'Wide',
        email: 'wide@x.test',
        permissions: ['portal:withdraw'],
      });
      assert.deepEqual([r.status, r.body.code], [403, 'members.permissions_too_wide']);
      r = await withCookie(h, lead.cookie, 'POST', '/portal/v1/team/members', {
        name: 'Bo',
        email: 'bo@x.test',
        permissions: ['portal:read'],
      });
      assert.equal(r.status, 201, r.raw);
      assert.match(r.body.data.invitation.url, /\/portal\/invitation#/);
      assert.deepEqual([r.body.data.member.status, r.body.data.member.totpEnrolled], ['invited', false]);
      const bo = r.body.data.member.id;
      r = await withCookie(h, lead.cookie, 'PATCH', `/portal/v1/team/members/${bo}`, { permissions: ['portal:read', 'portal:api_keys'] });
      assert.deepEqual([r.status, r.body.code], [403, 'members.permissions_too_wide']);
      r = await withCookie(h, lead.cookie, 'PATCH', `/portal/v1/team/members/${bo}`, { permissions: ['portal:read', 'portal:trade'] });
      assert.deepEqual([r.status, r.body.data.permissions], [200, ['portal:read', 'portal:trade']]);
      const reader = await signedInMember(h, o.orgId, ['portal:read']);
      const team = await withCookie(h, reader.cookie, 'GET', '/portal/v1/team/members');
      assert.ok(team.body.data.some((m: { id: string }) => m.id === bo));
      r = await withCookie(h, reader.cookie, 'POST', '/portal/v1/team/members', { name: 'X', email: 'x2@x.test', permissions: [] });
      assert.deepEqual([r.status, r.body.code], [403, 'auth.scope_missing']);
      const trail = (await h.op('GET', `/audit?subjectId=${bo}`)).body.data.map(
        (x: { actor: string; action: string }) => `${x.actor} ${x.action}`,
      );
      assert.deepEqual(trail, [`member:${lead.memberId} member.permissions`, `member:${lead.memberId} member.create`]);
    });

    test('team: a pending invitation sent again gets a new link and the old one stops; portal:team only, own organization only', async () => {
      const o = await seedOrg(h);
      const lead = await signedInMember(h, o.orgId, ['portal:read', 'portal:team']);
      const inv = await withCookie(h, lead.cookie, 'POST', '/portal/v1/team/members', {
        name: 'Cy',
        email: 'cy@x.test',
        permissions: ['portal:read'],
      });
      assert.equal(inv.status, 201, inv.raw);
      const cy = inv.body.data.member.id;
      const oldToken = inv.body.data.invitation.url.split('#')[1];
      const reader = await signedInMember(h, o.orgId, ['portal:read']);
      let r = await withCookie(h, reader.cookie, 'POST', `/portal/v1/team/members/${cy}/invitation`);
      assert.deepEqual([r.status, r.body.code], [403, 'auth.scope_missing']);
      const other = await seedOrg(h);
      const stranger = await h.op('POST', `/organizations/${other.orgId}/members`, { name: 'Di', email: 'di@y.test', permissions: [] });
      r = await withCookie(h, lead.cookie, 'POST', `/portal/v1/team/members/${stranger.body.data.id}/invitation`);
      assert.deepEqual([r.status, r.body.code], [404, 'members.not_found']);
      r = await withCookie(h, lead.cookie, 'POST', `/portal/v1/team/members/${cy}/invitation`);
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual([r.body.data.member.id, r.body.data.member.status], [cy, 'invited']);
      assert.equal(Date.parse(r.body.data.invitation.expiresAt) - h.clock.now().getTime(), 7 * 86_400_000);
      const newToken = r.body.data.invitation.url.split('#')[1];
      assert.notEqual(newToken, oldToken);
      const accept = (token: string) =>
        h.app.inject({
          method: 'POST',
          url: '/portal/v1/invitations/accept',
          headers: { 'content-type': 'application/json', 'x-lang': 'en' },
          payload: JSON.stringify({ token, password: PASSWORD }),
        });
      const old = await accept(oldToken);
      assert.deepEqual([old.statusCode, old.json().code], [410, 'auth.invitation_invalid']);
      const fresh = await accept(newToken);
      assert.deepEqual([fresh.statusCode, fresh.json().data.member.status], [200, 'active']);
      // Accepted: nothing left to send again.
      r = await withCookie(h, lead.cookie, 'POST', `/portal/v1/team/members/${cy}/invitation`);
      assert.deepEqual([r.status, r.body.code], [409, 'members.not_invited']);
      const trail = (await h.op('GET', `/audit?subjectId=${cy}`)).body.data.map(
        (x: { actor: string; action: string }) => `${x.actor} ${x.action}`,
      );
      assert.ok(trail.includes(`member:${lead.memberId} member.reinvite`), trail.join(', '));
    });

    test('TOTP: enrol, confirm, a code is needed and accepted once (replay refused), recovery codes once each; the organization can require it', async () => {
      const o = await seedOrg(h);
      const p = await signedInMember(h, o.orgId);
      const e = await withCookie(h, p.cookie, 'POST', '/portal/v1/totp/enrol');
      assert.equal(e.status, 200, e.raw);
      const secret: string = e.body.data.secret;
      assert.match(e.body.data.otpauthUrl, /^otpauth:\/\/totp\/Cambio:.*secret=/);
      let r = await withCookie(h, p.cookie, 'POST', '/portal/v1/totp/confirm', {
        code: '000000' === totpCode(secret, h.clock.now()) ? '111111' : '000000',
      });
      assert.deepEqual([r.status, r.body.code], [422, 'auth.totp_code_invalid']);
      r = await withCookie(h, p.cookie, 'POST', '/portal/v1/totp/confirm', { code: totpCode(secret, h.clock.now()) });
      assert.equal(r.status, 200, r.raw);
      const codes: string[] = r.body.data.recoveryCodes;
      assert.equal(codes.length, 10);
      for (const c of codes) assert.match(c, /^[a-z0-9]{4}-[a-z0-9]{4}$/);
      const stored = await h.store.db.selectFrom('credentials').selectAll().where('subject_id', '=', p.memberId).executeTakeFirstOrThrow();
      assert.ok(
        !JSON.stringify(stored).includes(secret) && !codes.some((c) => JSON.stringify(stored).includes(c)),
        'sealed secret, hashed codes',
      );
      assert.match(stored.password_hash!, /^scrypt\$15\$8\$1\$/);

      r = { status: 0 } as never;
      const noCode = await signIn(h, 'portal', { email: p.email, password: PASSWORD });
      assert.deepEqual([noCode.statusCode, noCode.json().code], [401, 'auth.code_required']);
      clock().advance(30_000);
      const code = totpCode(secret, h.clock.now());
      assert.equal((await signIn(h, 'portal', { email: p.email, password: PASSWORD, code })).statusCode, 200);
      const replay = await signIn(h, 'portal', { email: p.email, password: PASSWORD, code });
      assert.deepEqual([replay.statusCode, replay.json().code], [401, 'auth.sign_in_failed'], 'a used code is refused within its window');
      assert.equal((await signIn(h, 'portal', { email: p.email, password: PASSWORD, code: codes[0]!.toUpperCase() })).statusCode, 200);
      assert.equal(
        (await signIn(h, 'portal', { email: p.email, password: PASSWORD, code: codes[0] })).statusCode,
        401,
        'a recovery code works once',
      );

      // The organization requires TOTP: a member without it may only enrol.
      const q = await signedInMember(h, o.orgId);
      const patched = await h.op('PATCH', `/organizations/${o.orgId}`, { requireTotp: true });
      assert.equal(patched.body.data.requireTotp, true);
      const blocked = await withCookie(h, q.cookie, 'GET', '/api/v1/balances');
      assert.deepEqual([blocked.status, blocked.body.code], [403, 'auth.totp_required']);
      assert.equal((await withCookie(h, q.cookie, 'GET', '/portal/v1/team/members')).body.code, 'auth.totp_required');
      assert.equal((await withCookie(h, q.cookie, 'POST', '/portal/v1/totp/enrol')).status, 200);
      assert.equal((await h.call(o.key, 'GET', '/balances')).status, 200, 'keys are not people: unaffected');
    });

    test('password change: the current one proven; the other sessions end', async () => {
      const o = await seedOrg(h);
      const p = await signedInMember(h, o.orgId);
      const other = cookieFrom(await signIn(h, 'portal', { email: p.email, password: PASSWORD }));
      let r = await withCookie(h, other, 'POST', '/portal/v1/password', {
        currentPassword: 'wrong one here',
        newPassword: 'a whole new passphrase',
      });
      assert.deepEqual([r.status, r.body.code], [422, 'auth.current_password_wrong']);
      r = await withCookie(h, other, 'POST', '/portal/v1/password', { currentPassword: PASSWORD, newPassword: 'a whole new passphrase' });
      assert.deepEqual([r.status, r.body.data], [200, { changed: true }]);
      assert.equal((await withCookie(h, other, 'GET', '/portal/v1/session')).status, 200);
      assert.equal((await withCookie(h, p.cookie, 'GET', '/portal/v1/session')).status, 401);
      assert.equal((await signIn(h, 'portal', { email: p.email, password: 'a whole new passphrase' })).statusCode, 200);
    });

    test('staff: roles gate routes, TOTP before any write, personal tokens, four-eyes by two persons over HTTP, removal stops everything', async () => {
      assert.equal(
        (
          await h.op('PUT', '/market/pairs/BTC/USD', {
            midRate: '65000.00',
            spreadBps: 50,
            feeBps: 10,
            fixedFeeQuoteMinor: '100',
            minBaseMinor: '10000',
            maxBaseMinor: '1000000000',
          })
        ).status,
        200,
      );
      const fresh = await signedInStaff(h, 'admin', { totp: false });
      const me = await withCookie(h, fresh.cookie, 'GET', '/operator/v1/session');
      assert.deepEqual([me.status, me.body.data.staff.totpEnrolled], [200, false]);
      assert.equal((await withCookie(h, fresh.cookie, 'GET', '/operator/v1/orders')).status, 200, 'reads before TOTP');
      const w = await withCookie(h, fresh.cookie, 'PUT', '/operator/v1/market/assets/ETH', { decimals: 18 });
      assert.deepEqual([w.status, w.body.code], [403, 'auth.totp_required']);

      const viewer = await signedInStaff(h, 'viewer');
      const ana = await signedInStaff(h, 'approver');
      const bea = await signedInStaff(h, 'approver');
      const v = await withCookie(h, viewer.cookie, 'PUT', '/operator/v1/policies/approvals/BTC', { secondApprovalFromMinor: '1' });
      assert.deepEqual([v.status, v.body.code], [403, 'auth.role_missing']);
      const a = await withCookie(h, ana.cookie, 'PUT', '/operator/v1/policies/approvals/BTC', { secondApprovalFromMinor: '1' });
      assert.deepEqual([a.status, a.body.code], [403, 'auth.role_missing'], "policies are the admin's");
      assert.equal((await h.op('PUT', '/policies/approvals/BTC', { secondApprovalFromMinor: '1000000' })).status, 200);

      const o = await seedOrg(h, { balances: { BTC: 5_000_000n } });
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
      const order = (await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id })).body.data.id;
      const byViewer = await withCookie(h, viewer.cookie, 'POST', `/operator/v1/orders/${order}/approve`);
      assert.deepEqual([byViewer.status, byViewer.body.code], [403, 'auth.role_missing']);
      const first = await withCookie(h, ana.cookie, 'POST', `/operator/v1/orders/${order}/approve`);
      assert.equal(first.status, 200, first.raw);
      assert.deepEqual(
        [
          first.body.data.state,
          first.body.data.approvalsRequired,
          first.body.data.approvals.map((x: { staffId: string; name: string }) => [x.staffId, x.name]),
        ],
        ['pending_approval', 2, [[ana.staffId, ana.name]]],
      );
      const twice = await withCookie(h, ana.cookie, 'POST', `/operator/v1/orders/${order}/approve`);
      assert.deepEqual([twice.status, twice.body.code], [409, 'orders.already_approved_by_you']);
      // Bea approves with her personal token (automation acts as her)
      const t = await withCookie(h, bea.cookie, 'POST', '/operator/v1/tokens', { name: 'desk script' });
      assert.equal(t.status, 201, t.raw);
      assert.match(t.body.data.token, /^ops_[a-z0-9]{12}\.[A-Za-z0-9_-]{43}$/);
      const viaToken = await h.app.inject({
        method: 'POST',
        url: `/operator/v1/orders/${order}/approve`,
        headers: { authorization: `Bearer ${t.body.data.token}`, 'x-operator': 'ignored' },
      });
      assert.equal(viaToken.statusCode, 200, viaToken.body);
      assert.equal(viaToken.json().data.state, 'completed');
      const trail = (await h.op('GET', `/audit?subjectId=${order}`)).body.data.map(
        (x: { actor: string; action: string }) => `${x.actor} ${x.action}`,
      );
      assert.deepEqual(trail, [
        `staff:${bea.staffId} order.complete`,
        `staff:${bea.staffId} order.approve`,
        `staff:${ana.staffId} order.approval`,
      ]);
      const tokens = await withCookie(h, bea.cookie, 'GET', '/operator/v1/tokens');
      assert.deepEqual([tokens.body.data.length, tokens.body.data[0].lastUsedAt !== null], [1, true]);
      assert.ok(!tokens.raw.includes(t.body.data.token.split('.')[1]), 'the token is shown once');

      // removal: sessions and tokens stop at once
      const removed = await h.op('DELETE', `/staff/${bea.staffId}`);
      assert.deepEqual([removed.status, removed.body.data.status], [200, 'removed']);
      assert.equal((await withCookie(h, bea.cookie, 'GET', '/operator/v1/orders')).status, 401);
      assert.equal(
        (await h.app.inject({ method: 'GET', url: '/operator/v1/orders', headers: { authorization: `Bearer ${t.body.data.token}` } }))
          .statusCode,
        401,
      );
      // the last active admin keeps the role
      const staff = (await h.op('GET', '/staff')).body.data as Array<{ id: string; role: string; status: string }>;
      assert.ok(staff.every((s) => !('password' in s)));
      const admins = staff.filter((s) => s.role === 'admin' && s.status === 'active');
      for (const s of admins.slice(1)) assert.equal((await h.op('DELETE', `/staff/${s.id}`)).status, 200);
      const last = await h.op('PATCH', `/staff/${admins[0]!.id}`, { role: 'viewer' });
      assert.deepEqual([last.status, last.body.code], [409, 'staff.last_admin']);
      const bootstrapSession = await h.op('GET', '/session');
      assert.deepEqual([bootstrapSession.status, bootstrapSession.body.code], [403, 'auth.role_missing']);
    });

    test('cookie writes from another origin are refused and change nothing; the same write from our origin works', async () => {
      const o = await seedOrg(h, { balances: { USD: 5000n } });
      const p = await signedInMember(h, o.orgId);
      const evil = { origin: 'http://evil.example' };
      const r = await withCookie(h, p.cookie, 'POST', '/portal/v1/api-keys', { scopes: ['portal:read'] }, evil);
      assert.deepEqual([r.status, r.body.code], [403, 'auth.cross_origin']);
      const ref = await withCookie(
        h,
        p.cookie,
        'POST',
        '/portal/v1/api-keys',
        { scopes: ['portal:read'] },
        { origin: '', referer: 'http://evil.example/page' },
      );
      assert.deepEqual([ref.status, ref.body.code], [403, 'auth.cross_origin']);
      const none = await h.app.inject({
        method: 'POST',
        url: '/portal/v1/api-keys',
        headers: { cookie: p.cookie, 'content-type': 'application/json' },
        payload: '{"scopes":["portal:read"]}',
      });
      assert.equal(none.statusCode, 403, 'a cookie write with neither Origin nor Referer is refused too');
      assert.equal(
        (await withCookie(h, p.cookie, 'POST', '/portal/v1/api-keys', { scopes: ['portal:read'] }, { origin: ORIGIN })).status,
        201,
      );
      assert.equal(
        (
          await withCookie(
            h,
            p.cookie,
            'POST',
            '/portal/v1/api-keys',
            { scopes: ['portal:read'] },
            { origin: 'http://localhost:80', host: 'localhost:80' },
          )
        ).status,
        201,
        "the request's own Host is our origin too",
      );
      const keys = (await withCookie(h, p.cookie, 'GET', '/portal/v1/api-keys')).body.data.filter(
        (k: { issuedBy: { id: string } }) => k.issuedBy.id === p.memberId,
      );
      assert.equal(keys.length, 2);
      void ALL_PERMISSIONS;
    });
  });
}
