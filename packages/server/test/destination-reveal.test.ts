import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { totpCode } from '../src/domain/people/totp.ts';
import type { ManualClock } from '../src/domain/ports.ts';
import {
  backends,
  listAssets,
  makeHarness,
  seedOrg,
  signedInStaff,
  usableDestination,
  withCookie,
  type Harness,
  type SeededOrg,
} from './harness.ts';

/**
 * A bank destination's full account number, shown to an approver or an admin on demand with step-up (a
 * fresh code of their own authenticator app) and an audit entry; never to a viewer, the bootstrap token
 * or a client, never in a list, never without the code, never twice for one code.
 */
for (const backend of backends()) {
  describe(`revealing a destination's account number [${backend}]`, () => {
    let h: Harness;
    let o: SeededOrg;
    let dst: string;
    const clock = () => h.clock as ManualClock;
    // Each code of the next 30-second step: enrolment used the current one.
    const nextCode = (secret: string) => {
      clock().advance(30_000);
      return totpCode(secret, h.clock.now());
    };
    const reveal = (cookie: string, body: unknown) => withCookie(h, cookie, 'POST', `/operator/v1/destinations/${dst}/reveal`, body);

    before(async () => {
      h = await makeHarness({ backend, manualClock: true, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
      await listAssets(h, { USD: 2 });
      o = await seedOrg(h, { balances: { USD: 100000n } });
      dst = await usableDestination(h, o.key, { accountNumber: '0123456789012345' });
    });
    after(async () => h?.close());

    test('an approver with a fresh code reads the full number; the audit trail says who and when, never the number', async () => {
      const ana = await signedInStaff(h, 'approver');
      const r = await reveal(ana.cookie, { code: nextCode(ana.totpSecret!) });
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(r.body.data, { id: dst, organizationId: o.orgId, accountNumber: '0123456789012345' });
      const audit = await h.op('GET', `/audit?subjectId=${dst}&action=destination.reveal`);
      assert.equal(audit.body.data.length, 1);
      const e = audit.body.data[0];
      assert.deepEqual(
        [e.actor, e.action, e.subjectType, e.actorName],
        [`staff:${ana.staffId}`, 'destination.reveal', 'destination', ana.name],
      );
      assert.doesNotMatch(JSON.stringify(audit.body.data), /01234567|89012345/, 'the number is not in the audit trail');
      // The lists stay masked.
      const list = await withCookie(h, ana.cookie, 'GET', `/operator/v1/destinations?organizationId=${o.orgId}`);
      assert.doesNotMatch(list.raw, /0123-4567|01234567/);
      const client = await h.call(o.key, 'GET', '/withdrawals/destinations');
      assert.doesNotMatch(client.raw, /0123-4567|01234567/);
    });

    test('an admin too; the same code twice is refused the second time (403 auth.step_up_invalid), and so are two at once', async () => {
      const ada = await signedInStaff(h, 'admin');
      const code = nextCode(ada.totpSecret!);
      assert.equal((await reveal(ada.cookie, { code })).status, 200);
      const again = await reveal(ada.cookie, { code });
      assert.deepEqual([again.status, again.body.code], [403, 'auth.step_up_invalid']);
      // Two reveals with one new code at the same moment: one is answered, the other refused.
      const fresh = nextCode(ada.totpSecret!);
      const both = await Promise.all([reveal(ada.cookie, { code: fresh }), reveal(ada.cookie, { code: fresh })]);
      assert.deepEqual(both.map((x) => x.status).sort(), [200, 403]);
      const audit = await h.op('GET', `/audit?subjectId=${dst}&action=destination.reveal&actor=staff:${ada.staffId}`);
      assert.equal(audit.body.data.length, 2, 'one entry per number shown');
    });

    test('without a code, or with a wrong one, nothing is shown and nothing recorded', async () => {
      const ben = await signedInStaff(h, 'approver');
      const before = (await h.op('GET', `/audit?subjectId=${dst}&action=destination.reveal`)).body.data.length;
      for (const body of [{}, { code: '' }]) {
        const r = await reveal(ben.cookie, body);
        assert.deepEqual([r.status, r.body.code, r.body.data], [403, 'auth.step_up_required', null], JSON.stringify(body));
      }
      const right = nextCode(ben.totpSecret!);
      const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');
      for (const code of [wrong, 'abcdef', '12345']) {
        const r = await reveal(ben.cookie, { code });
        assert.deepEqual([r.status, r.body.code], [403, 'auth.step_up_invalid'], code);
        assert.doesNotMatch(r.raw, /01234567/);
      }
      const es = await withCookie(h, ben.cookie, 'POST', `/operator/v1/destinations/${dst}/reveal`, {}, { 'x-lang': 'es' });
      assert.match(es.body.message ?? '', /código/);
      assert.equal((await h.op('GET', `/audit?subjectId=${dst}&action=destination.reveal`)).body.data.length, before);
      // The wrong tries did not spend the right code.
      assert.equal((await reveal(ben.cookie, { code: right })).status, 200);
    });

    test('a viewer is refused (403 auth.role_missing) even with a right code; the bootstrap token and a client key too', async () => {
      const vic = await signedInStaff(h, 'viewer');
      const r = await reveal(vic.cookie, { code: nextCode(vic.totpSecret!) });
      assert.deepEqual([r.status, r.body.code], [403, 'auth.role_missing']);
      const boot = await h.op('POST', `/destinations/${dst}/reveal`, { code: '123456' });
      assert.deepEqual([boot.status, boot.body.code], [403, 'auth.step_up_required']);
      const key = await h.app.inject({
        method: 'POST',
        url: `/operator/v1/destinations/${dst}/reveal`,
        headers: { 'x-api-key': o.key, 'content-type': 'application/json' },
        payload: '{"code":"123456"}',
      });
      assert.equal(key.statusCode, 401);
      assert.doesNotMatch(key.body, /01234567/);
      // An approver who never enrolled a second factor cannot step up: every write asks to enrol first.
      const noTotp = await signedInStaff(h, 'approver', { totp: false });
      const n = await reveal(noTotp.cookie, { code: '123456' });
      assert.deepEqual([n.status, n.body.code], [403, 'auth.totp_required']);
      const unknown = await withCookie(h, vic.cookie, 'POST', '/operator/v1/destinations/dst_nope/reveal', { code: '123456' });
      assert.equal(unknown.status, 403, 'the role is checked before anything else');
    });
  });
}
