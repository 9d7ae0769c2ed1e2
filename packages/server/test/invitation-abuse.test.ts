import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { INVITATIONS_PER_ADDRESS_PER_HOUR, INVITATIONS_PER_MEMBER_PER_HOUR } from '../src/usecases/members/invitation-limits.ts';
import { backends, makeHarness, seedOrg, signedInMember, withCookie, type Harness } from './harness.ts';

const LEAD = ['portal:read', 'portal:team'];
const address = () => `i${randomBytes(4).toString('hex')}@x.test`;

for (const backend of backends()) {
  describe(`invitations cannot be turned into phishing or spam (${backend})`, () => {
    let h: Harness;
    before(async () => {
      // Sessions outlast the hour the clock is moved on.
      h = await makeHarness({
        backend,
        manualClock: true,
        env: { CAMBIO_SESSION_IDLE_MS: '172800000', CAMBIO_SESSION_MAX_MS: '172800000' },
      });
    });
    after(async () => h?.close());

    const invite = (cookie: string, name: string, email = address()) =>
      withCookie(h, cookie, 'POST', '/portal/v1/team/members', { name, email, permissions: ['portal:read'] });
    const team = async (cookie: string) => (await withCookie(h, cookie, 'GET', '/portal/v1/team/members')).body.data.length as number;

    test('an invitee name with a link, a domain, www., an address or a line break is 422 members.name_not_allowed, and nothing is created', async () => {
      const o = await seedOrg(h);
      const lead = await signedInMember(h, o.orgId, LEAD);
      const before = await team(lead.cookie);
      for (const name of [
        'URGENT: your Cambio account is frozen. Verify now at http://cambio-verify.example',
        'Verify at hxxp://x or HTTPS now',
        'www.cambio-support',
        'cambio-support.com',
        'Ana support@cambio.example',
        'Ana\nYour account is frozen',
        'Ana\r\nBcc: x',
        'Ana\u2028Bob',
        'Ana\u202eBob',
        'Ana\tBob',
        'Ana\u0007',
        'evil.ＣＯＭ',
      ]) {
        const r = await invite(lead.cookie, name);
        assert.deepEqual([r.status, r.body.code], [422, 'members.name_not_allowed'], JSON.stringify(name));
      }
      assert.equal(await team(lead.cookie), before, 'nothing created');
      for (const name of ['Tomás O’Brien-Núñez', 'Ana M. Pérez', 'Jean-Luc Picard', '王小明']) {
        const r = await invite(lead.cookie, name);
        assert.equal(r.status, 201, `${name}: ${r.raw}`);
      }
    });

    test('the operator and staff invitations refuse such names too', async () => {
      const o = await seedOrg(h);
      let r = await h.op('POST', `/organizations/${o.orgId}/members`, { name: 'see http://x.example', email: address(), permissions: [] });
      assert.deepEqual([r.status, r.body.code], [422, 'members.name_not_allowed']);
      r = await h.op('POST', '/staff', { name: 'Desk\nAdmin', email: address(), role: 'viewer' });
      assert.deepEqual([r.status, r.body.code], [422, 'members.name_not_allowed']);
    });

    test(`an address receives at most ${INVITATIONS_PER_ADDRESS_PER_HOUR} invitations an hour: then 429 with Retry-After, also from another organization, until the hour has passed`, async () => {
      const o = await seedOrg(h);
      const lead = await signedInMember(h, o.orgId, LEAD);
      const first = await invite(lead.cookie, 'Cy');
      assert.equal(first.status, 201);
      const id = first.body.data.member.id;
      for (let i = 1; i < INVITATIONS_PER_ADDRESS_PER_HOUR; i++) {
        const r = await withCookie(h, lead.cookie, 'POST', `/portal/v1/team/members/${id}/invitation`);
        assert.equal(r.status, 200, r.raw);
      }
      const refused = await withCookie(h, lead.cookie, 'POST', `/portal/v1/team/members/${id}/invitation`);
      assert.deepEqual([refused.status, refused.body.code], [429, 'members.invitations_limited']);
      const retryAfter = Number(refused.headers['retry-after']);
      assert.ok(retryAfter > 0 && retryAfter <= 3600, String(refused.headers['retry-after']));
      // Another organization's member inviting the same address is counted against the address too.
      const other = await seedOrg(h);
      const otherLead = await signedInMember(h, other.orgId, LEAD);
      const cyEmail = (await withCookie(h, lead.cookie, 'GET', '/portal/v1/team/members')).body.data.find(
        (m: { id: string }) => m.id === id,
      ).email;
      const elsewhere = await invite(otherLead.cookie, 'Cy', cyEmail);
      assert.deepEqual([elsewhere.status, elsewhere.body.code], [429, 'members.invitations_limited']);
      // Once the hour has passed, it may be sent again.
      (h.clock as unknown as { advance(ms: number): void }).advance(retryAfter * 1000);
      const again = await withCookie(h, lead.cookie, 'POST', `/portal/v1/team/members/${id}/invitation`);
      assert.equal(again.status, 200, again.raw);
    });

    test(`a member sends at most ${INVITATIONS_PER_MEMBER_PER_HOUR} invitations an hour, new or resent`, async () => {
      const o = await seedOrg(h);
      const lead = await signedInMember(h, o.orgId, LEAD);
      for (let i = 0; i < INVITATIONS_PER_MEMBER_PER_HOUR; i++) assert.equal((await invite(lead.cookie, `P ${i}`)).status, 201);
      const r = await invite(lead.cookie, 'One too many');
      assert.deepEqual([r.status, r.body.code], [429, 'members.invitations_limited']);
      assert.ok(Number(r.headers['retry-after']) > 0);
      // Another member of the organization has a count of their own.
      const colleague = await signedInMember(h, o.orgId, LEAD);
      assert.equal((await invite(colleague.cookie, 'Fine')).status, 201);
    });

    test('resends at the same moment: exactly as many pass as the address has left, the rest are 429', async () => {
      const o = await seedOrg(h);
      const lead = await signedInMember(h, o.orgId, LEAD);
      const first = await invite(lead.cookie, 'Dee');
      const id = first.body.data.member.id;
      const all = await Promise.all(
        Array.from({ length: 6 }, () => withCookie(h, lead.cookie, 'POST', `/portal/v1/team/members/${id}/invitation`)),
      );
      const passed = all.filter((r) => r.status === 200).length;
      assert.equal(passed, INVITATIONS_PER_ADDRESS_PER_HOUR - 1, all.map((r) => r.status).join(' '));
      assert.ok(all.every((r) => r.status === 200 || r.body.code === 'members.invitations_limited'));
    });
  });
}
