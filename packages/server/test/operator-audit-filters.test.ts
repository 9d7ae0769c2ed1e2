import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends, listAssets, makeHarness, seedOrg, type Harness, type SeededOrg } from './harness.ts';

for (const backend of backends())
  describe(`the audit trail searched and named [${backend}]`, () => {
    // The desk searches the audit trail by person, organization, kind and date.
    let h: Harness;
    let one: SeededOrg;
    let other: SeededOrg;
    let orderId: string;
    before(async () => {
      h = await makeHarness({ backend });
      await listAssets(h, { BTC: 8, USD: 2 });
      await h.op('PUT', '/market/pairs/BTC/USD', {
        midRate: '60000',
        spreadBps: 50,
        feeBps: 10,
        fixedFeeQuoteMinor: '0',
        minBaseMinor: '10000',
        maxBaseMinor: '1000000000',
      });
      one = await seedOrg(h, { balances: { BTC: 100000000n } });
      other = await seedOrg(h, { balances: { BTC: 100000000n } });
      const q = await h.call(one.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
      orderId = (await h.call(one.key, 'POST', '/orders', { quoteId: q.body.data.id })).body.data.id;
      const r = await h.app.inject({
        method: 'POST',
        url: `/operator/v1/orders/${orderId}/reject`,
        payload: { reason: 'no' },
        headers: { authorization: 'Bearer test-operator-token-0123456789', 'x-operator': 'Ana' },
      });
      assert.equal(r.statusCode, 200, r.body);
    });
    after(async () => {
      await h.close();
    });

    const entries = async (qs: string) => {
      const r = await h.op('GET', `/audit${qs}`);
      assert.equal(r.status, 200, r.raw);
      return r.body.data as Array<{
        actor: string;
        action: string;
        subjectId: string;
        createdAt: string;
        actorName?: string | null;
        actorEmail?: string | null;
      }>;
    };

    test("?organizationId= finds the organization and its own records, never another's", async () => {
      const mine = await entries(`?organizationId=${one.orgId}&limit=100`);
      const subjects = new Set(mine.map((e) => e.subjectId));
      for (const id of [one.orgId, one.memberId, one.keyId, orderId]) assert.ok(subjects.has(id), `${id} is in the organization's trail`);
      for (const id of [other.orgId, other.memberId, other.keyId]) assert.ok(!subjects.has(id), `${id} belongs to another organization`);
    });

    test('?actor= is the person exactly; bootstrap also finds bootstrap:<name>; ?action= the kind', async () => {
      const rejected = await entries(`?action=order.reject`);
      assert.equal(rejected.length, 1);
      const actor = rejected[0]!.actor;
      assert.match(actor, /^bootstrap/);
      assert.deepEqual(
        (await entries(`?actor=${encodeURIComponent(actor)}&action=order.reject`)).map((e) => e.subjectId),
        [orderId],
      );
      assert.ok((await entries('?actor=bootstrap&action=order.reject')).length === 1);
      assert.deepEqual(await entries('?actor=staff%3Anobody'), []);
      assert.deepEqual(await entries('?actor=bootstra%25'), []);
    });

    test('?from= inclusive and ?to= exclusive bound the time; a date that is not one is 400', async () => {
      const all = await entries('?limit=100');
      const newest = all[0]!.createdAt;
      assert.ok((await entries(`?from=${encodeURIComponent(newest)}&limit=100`)).every((e) => e.createdAt >= newest));
      assert.ok((await entries(`?to=${encodeURIComponent(newest)}&limit=100`)).every((e) => e.createdAt < newest));
      assert.deepEqual(await entries('?to=2000-01-01T00:00:00Z'), []);
      assert.equal((await h.op('GET', '/audit?from=yesterday')).status, 400);
    });

    test('an entry names its person (docs/design/people-and-apps.md); ?person= finds a person by part of their name or email, as staff and by their keys', async () => {
      const staff = await h.op('POST', '/staff', { name: 'Zoe Ruiz', email: 'zoe.ruiz@operator.test', role: 'viewer' });
      assert.equal(staff.status, 201, staff.raw);
      const token = new URL(staff.body.data.invitation.url).hash.slice(1);
      const accepted = await h.app.inject({
        method: 'POST',
        url: '/operator/v1/invitations/accept',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ token, password: 'Zoe Ruiz long passphrase 42!' }),
      });
      assert.equal(accepted.statusCode, 200, accepted.body);
      const zoe = await entries('?person=RUIZ&limit=100');
      assert.ok(zoe.length >= 1, 'her own acceptance is hers');
      for (const e of zoe)
        assert.deepEqual([e.actor, e.actorName, e.actorEmail], [`staff:${staff.body.data.staff.id}`, 'Zoe Ruiz', 'zoe.ruiz@operator.test']);
      assert.deepEqual(await entries('?person=zoe.ruiz@operator'), zoe.slice(0, 25));

      // A client's act through its key is the key's member's.
      const q = await h.call(other.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
      const o = await h.call(other.key, 'POST', '/orders', { quoteId: q.body.data.id });
      assert.equal((await h.call(other.key, 'POST', `/orders/${o.body.data.id}/cancel`)).status, 200);
      const members = await h.op('GET', `/organizations/${other.orgId}/members`);
      const email = (members.body.data as Array<{ email: string }>)[0]!.email;
      const byKey = await entries(`?person=${encodeURIComponent(email)}`);
      const cancel = byKey.find((e) => e.action === 'order.cancel');
      assert.deepEqual([cancel?.actor, cancel?.actorName, cancel?.actorEmail], [`key:${other.keyId}`, 'M', email]);
      assert.deepEqual(await entries('?person=nobody%25at_all'), [], 'the text is matched literally, % and _ included');
      const bootstrap = await entries('?action=order.reject');
      assert.equal(bootstrap[0]!.actorName, null, 'the bootstrap token is no person');
    });
  });
