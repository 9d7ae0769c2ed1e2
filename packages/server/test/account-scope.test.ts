import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { resetRequestsSettled } from '../src/people/password-reset.ts';
import { deliverDueMail } from '../src/usecases/mail/outbox.ts';
import { startMailReceiver, type MailReceiver } from './mail-receiver.ts';
import { backends, makeHarness, PASSWORD, seedOrg, signedInMember, withCookie, type Harness } from './harness.ts';

const NEW_PASSWORD = 'a brand new passphrase 77';

for (const backend of backends()) {
  describe(`one address, accounts in two organizations (${backend})`, () => {
    let h: Harness;
    let rx: MailReceiver;
    before(async () => {
      rx = await startMailReceiver();
      h = await makeHarness({ backend, deps: { mail: rx.sender } });
    });
    after(async () => {
      await h?.close();
      await rx?.close();
    });

    const post = (url: string, body: unknown) =>
      h.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', 'x-lang': 'en' }, payload: JSON.stringify(body) });
    const flush = async () => {
      await resetRequestsSettled();
      await deliverDueMail(h.deps);
    };
    /** An account of `email` in the organization, activated with `password`: its member id. */
    const account = async (orgId: string, email: string, password: string) => {
      const m = await h.op('POST', `/organizations/${orgId}/members`, { name: 'Rosa', email, permissions: ['portal:read'] });
      assert.equal(m.status, 201, m.raw);
      const r = await post('/portal/v1/invitations/accept', { token: new URL(m.body.data.invitation.url).hash.slice(1), password });
      assert.equal(r.statusCode, 200, r.body);
      return m.body.data.id as string;
    };
    const signsInto = async (email: string, password: string) => {
      const r = await post('/portal/v1/session', { email, password });
      return r.statusCode === 200 ? (r.json().data.member.id as string) : r.json().code;
    };

    test("a password reset applies only to the account whose link was used, never to the address's other accounts", async () => {
      const a = await seedOrg(h, { name: 'Alpha Treasury' });
      const b = await seedOrg(h, { name: 'Beta Treasury' });
      const email = 'rosa@two.test';
      const inA = await account(a.orgId, email, PASSWORD);
      const inB = await account(b.orgId, email, 'beta only passphrase 99');
      await flush();
      rx.mails.length = 0;
      const asked = await post('/portal/v1/password-reset', { email });
      assert.equal(asked.statusCode, 200);
      await flush();
      const mails = rx.to(email);
      assert.equal(mails.length, 2, 'one link per account');
      const forA = mails.find((m) => m.subject.includes('Alpha Treasury'));
      assert.ok(forA, mails.map((m) => m.subject).join(', '));
      const token = new URL(rx.link(forA!, 'http://127.0.0.1:8080/portal/reset-password#')).hash.slice(1);
      const done = await post('/portal/v1/password-reset/complete', { token, password: NEW_PASSWORD });
      assert.equal(done.statusCode, 200, done.body);
      assert.equal(await signsInto(email, NEW_PASSWORD), inA);
      assert.equal(await signsInto(email, 'beta only passphrase 99'), inB, "the other organization's account keeps its own password");
      assert.equal(await signsInto(email, PASSWORD), 'auth.sign_in_failed');
    });

    test("a member cannot invite an address that is another organization's active member: the inviter never receives its link", async () => {
      const a = await seedOrg(h, { name: 'Gamma' });
      const b = await seedOrg(h, { name: 'Delta' });
      const email = 'victor@victim.test';
      await account(a.orgId, email, PASSWORD);
      const lead = await signedInMember(h, b.orgId, ['portal:read', 'portal:team']);
      await flush();
      rx.mails.length = 0;
      const r = await withCookie(h, lead.cookie, 'POST', '/portal/v1/team/members', {
        name: 'Victor',
        email: 'Victor@Victim.test',
        permissions: ['portal:read'],
      });
      assert.deepEqual([r.status, r.body.code, r.body.data], [409, 'members.email_has_account', null]);
      assert.doesNotMatch(r.raw, /invitation#/);
      const team = await withCookie(h, lead.cookie, 'GET', '/portal/v1/team/members');
      assert.ok(!team.body.data.some((m: { email: string }) => m.email === email), 'nothing created');
      await flush();
      assert.equal(rx.to(email).length, 0, 'nothing sent');
      // An address with no account anywhere is invited as always, link included.
      const fresh = await withCookie(h, lead.cookie, 'POST', '/portal/v1/team/members', {
        name: 'Nadia',
        email: 'nadia@new.test',
        permissions: ['portal:read'],
      });
      assert.equal(fresh.status, 201, fresh.raw);
      assert.match(fresh.body.data.invitation.url, /invitation#/);
    });
  });
}
