import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends, listAssets, makeHarness, PASSWORD, seedOrg, signedInMember, type Harness } from './harness.ts';

const signIn = (h: Harness, body: Record<string, unknown>, remoteAddress: string) =>
  h.app.inject({
    method: 'POST',
    url: '/portal/v1/session',
    remoteAddress,
    headers: { 'content-type': 'application/json', 'x-lang': 'en' },
    payload: JSON.stringify(body),
  });

/**
 * The throttle counts an attempt before its password is verified: sign-ins sent all at once cannot each
 * read "not locked" and verify, so no more than the limit are ever verified in a window.
 */
for (const backend of backends()) {
  describe(`sign-in throttling under parallel attempts [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
      await listAssets(h, { USD: 2 });
    });
    after(async () => h?.close());

    test('40 wrong passwords and the right one at once from 41 addresses: at most five are verified, the rest 429', async () => {
      const o = await seedOrg(h);
      const p = await signedInMember(h, o.orgId);
      const tries = Array.from({ length: 41 }, (_, i) =>
        signIn(h, { email: p.email, password: i === 20 ? PASSWORD : `wrong password ${i}` }, `10.1.0.${i + 1}`),
      );
      const answers = await Promise.all(tries);
      const verified = answers.filter((r) => r.statusCode !== 429);
      assert.ok(verified.length <= 5, `${verified.length} attempts were verified: ${answers.map((r) => r.statusCode).join(',')}`);
      assert.ok(verified.every((r) => r.statusCode === 401 || r.statusCode === 200));
      for (const r of answers.filter((x) => x.statusCode === 429)) {
        assert.equal(r.json().code, 'auth.sign_in_locked');
        assert.ok(Number(r.headers['retry-after']) > 0);
      }
    });

    test('60 failures at once from one address: at most twenty are verified, the rest 429', async () => {
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) => signIn(h, { email: `nobody${i}@race.test`, password: 'wrong password!!' }, '10.2.0.1')),
      );
      const counts = { 401: 0, 429: 0 } as Record<number, number>;
      for (const r of answers) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
      assert.ok(counts[401]! <= 20, JSON.stringify(counts));
      assert.equal(counts[401]! + counts[429]!, 60, JSON.stringify(counts));
      assert.ok(counts[429]! >= 40, JSON.stringify(counts));
    });

    test('a right password gives its attempt back: an address signing in many times is never locked by its successes', async () => {
      const o = await seedOrg(h);
      const p = await signedInMember(h, o.orgId);
      for (let i = 0; i < 25; i++) {
        const r = await signIn(h, { email: p.email, password: PASSWORD }, '10.3.0.1');
        assert.equal(r.statusCode, 200, `sign-in ${i}: ${r.body}`);
      }
    });
  });
}
