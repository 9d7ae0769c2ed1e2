import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import {
  backends,
  cookieFrom,
  makeHarness,
  OPERATOR_TOKEN,
  PASSWORD,
  seedOrg,
  signedInMember,
  signedInStaff,
  withCookie,
  type Harness,
} from './harness.ts';
import { latch } from './latch.ts';

/**
 * Idempotency-Key on /portal/v1 (docs/api-guide.md): per member, the kept answer replayed with
 * `Idempotent-Replayed: true`, another body 422, two at once one 409. The kept answers carry secrets shown
 * once (a key, an invitation, a token), so they are sealed in the store, on every API.
 */
for (const backend of backends()) {
  describe(`portal Idempotency-Key [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
    });
    after(async () => h?.close());
    const idem = () => ({ 'idempotency-key': `portal-${randomBytes(8).toString('hex')}` });
    const keysOf = async (cookie: string, memberId: string) =>
      (await withCookie(h, cookie, 'GET', '/portal/v1/api-keys')).body.data.filter(
        (k: { issuedBy: { id: string } }) => k.issuedBy.id === memberId,
      ).length;
    const kept = async () =>
      (await sql<{ response: string | null }>`select response from idempotency_keys`.execute(h.store.db)).rows
        .map((r) => r.response ?? '')
        .join('\n');

    test('issuing a key twice with one Idempotency-Key: the same key again, marked replayed, one key issued; another body is 422', async () => {
      const o = await seedOrg(h);
      const p = await signedInMember(h, o.orgId);
      const k = idem();
      const first = await withCookie(h, p.cookie, 'POST', '/portal/v1/api-keys', { scopes: ['portal:read'] }, k);
      assert.equal(first.status, 201, first.raw);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      const again = await withCookie(h, p.cookie, 'POST', '/portal/v1/api-keys', { scopes: ['portal:read'] }, k);
      assert.deepEqual(
        [again.status, again.headers['idempotent-replayed'], again.body.data.key, again.body.data.id],
        [201, 'true', first.body.data.key, first.body.data.id],
      );
      const other = await withCookie(h, p.cookie, 'POST', '/portal/v1/api-keys', { scopes: ['portal:read', 'portal:trade'] }, k);
      assert.deepEqual([other.status, other.body.code], [422, 'idempotency.key_reused']);
      assert.equal(await keysOf(p.cookie, p.memberId), 1);
      // The key space is the member's: another member of the organization with the same key and body gets a key of their own.
      const q = await signedInMember(h, o.orgId);
      const theirs = await withCookie(h, q.cookie, 'POST', '/portal/v1/api-keys', { scopes: ['portal:read'] }, k);
      assert.deepEqual([theirs.status, theirs.headers['idempotent-replayed']], [201, undefined]);
      assert.notEqual(theirs.body.data.key, first.body.data.key, 'a key shown once is never replayed to another person');
      assert.equal(await keysOf(q.cookie, q.memberId), 1);
      // Kept sealed: neither key is readable in the store.
      const store = await kept();
      for (const key of [first.body.data.key, theirs.body.data.key])
        assert.ok(!store.includes(key.split('.')[1]), 'a kept answer shows a key');
      assert.match(store, /a1\./);
    });

    test('an invitation twice with one Idempotency-Key: one member invited, the same invitation answered', async () => {
      const o = await seedOrg(h);
      const lead = await signedInMember(h, o.orgId);
      const k = idem();
      const body = { name: 'Once', email: `once-${randomBytes(3).toString('hex')}@x.test`, permissions: ['portal:read'] };
      const first = await withCookie(h, lead.cookie, 'POST', '/portal/v1/team/members', body, k);
      assert.equal(first.status, 201, first.raw);
      const again = await withCookie(h, lead.cookie, 'POST', '/portal/v1/team/members', body, k);
      assert.deepEqual(
        [again.status, again.headers['idempotent-replayed'], again.body.data.invitation.url],
        [201, 'true', first.body.data.invitation.url],
      );
      const team = (await withCookie(h, lead.cookie, 'GET', '/portal/v1/team/members')).body.data.filter(
        (m: { email: string }) => m.email === body.email,
      );
      assert.equal(team.length, 1);
      assert.ok(
        !(await kept()).includes(first.body.data.invitation.url.split('#')[1]),
        'the invitation token is not readable in the store',
      );
    });

    test('two at once with one key: one 201, one 409 idempotency.in_progress, one key issued', async () => {
      const o = await seedOrg(h);
      const p = await signedInMember(h, o.orgId);
      const store = h.store.idempotency;
      const { promise: gate, open } = latch();
      const complete = store.complete.bind(store);
      store.complete = async (...a) => {
        await gate;
        return complete(...a);
      };
      const k = idem();
      try {
        const both = [0, 1].map(() => withCookie(h, p.cookie, 'POST', '/portal/v1/api-keys', { scopes: ['portal:read'] }, k));
        const refused = await Promise.race(both);
        assert.deepEqual([refused.status, refused.body.code], [409, 'idempotency.in_progress']);
        open();
        assert.deepEqual((await Promise.all(both)).map((r) => r.status).sort(), [201, 409]);
      } finally {
        store.complete = complete;
        open();
      }
      assert.equal(await keysOf(p.cookie, p.memberId), 1);
      const third = await withCookie(h, p.cookie, 'POST', '/portal/v1/api-keys', { scopes: ['portal:read'] }, k);
      assert.deepEqual([third.status, third.headers['idempotent-replayed']], [201, 'true']);
    });

    test('signing in is never replayed (no member yet): each sign-in is a new session', async () => {
      const o = await seedOrg(h);
      const p = await signedInMember(h, o.orgId);
      const k = idem();
      const signIn = () =>
        h.app.inject({
          method: 'POST',
          url: '/portal/v1/session',
          headers: { 'content-type': 'application/json', ...k },
          payload: JSON.stringify({ email: p.email, password: PASSWORD }),
        });
      const [a, b] = [await signIn(), await signIn()];
      assert.deepEqual([a.statusCode, b.statusCode, b.headers['idempotent-replayed']], [200, 200, undefined]);
      assert.notEqual(cookieFrom(a), cookieFrom(b));
    });

    test('an operator key issue and a staff token with Idempotency-Key: replayed, and kept sealed', async () => {
      const o = await seedOrg(h);
      const k = idem();
      const issue = () =>
        h.app.inject({
          method: 'POST',
          url: `/operator/v1/members/${o.memberId}/api-keys`,
          headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json', ...k },
          payload: '{"scopes":["portal:read"]}',
        });
      const [a, b] = [await issue(), await issue()];
      assert.deepEqual(
        [a.statusCode, b.statusCode, b.headers['idempotent-replayed'], b.json().data.key],
        [201, 201, 'true', a.json().data.key],
      );
      const s = await signedInStaff(h, 'viewer');
      const t1 = await withCookie(h, s.cookie, 'POST', '/operator/v1/tokens', { name: 'script' }, k);
      const t2 = await withCookie(h, s.cookie, 'POST', '/operator/v1/tokens', { name: 'script' }, k);
      assert.deepEqual([t1.status, t2.headers['idempotent-replayed'], t2.body.data.token], [201, 'true', t1.body.data.token]);
      const store = await kept();
      assert.ok(
        !store.includes(a.json().data.key.split('.')[1]) && !store.includes(t1.body.data.token.split('.')[1]),
        'a kept answer shows a secret',
      );
    });
  });
}
