import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeHarness, ORIGIN, PASSWORD, SECRET, seedOrg, signedInMember, type Harness } from './harness.ts';

/** docs/design/people-and-apps.md: the session cookie is `Secure` in production (people.test.ts checks that the sandbox's is not). */
describe('session cookies in production', () => {
  let h: Harness;
  before(async () => {
    h = await makeHarness({ env: { CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET, CAMBIO_SEED_DEMO: 'false' } });
  });
  after(async () => h?.close());

  test('set at sign-in and cleared at sign-out with Secure, HttpOnly and SameSite=Strict', async () => {
    assert.equal(h.config.mode, 'production');
    const o = await seedOrg(h);
    const m = await signedInMember(h, o.orgId);
    const signIn = await h.app.inject({
      method: 'POST',
      url: '/portal/v1/session',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: m.email, password: PASSWORD }),
    });
    assert.equal(signIn.statusCode, 200, signIn.body);
    assert.match(
      String(signIn.headers['set-cookie']),
      /^cambio_member=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200; Secure$/,
    );
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    const out = await h.app.inject({ method: 'DELETE', url: '/portal/v1/session', headers: { cookie, origin: ORIGIN } });
    assert.equal(out.statusCode, 200, out.body);
    assert.equal(String(out.headers['set-cookie']), 'cambio_member=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure');
    const after = await h.app.inject({ method: 'GET', url: '/portal/v1/session', headers: { cookie } });
    assert.equal(after.statusCode, 401, 'signed out at once');
  });
});
