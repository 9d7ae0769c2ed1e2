import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ALL_PERMISSIONS,
  available,
  backends,
  btcUsdMarket,
  eventsSettled,
  held,
  makeHarness,
  seedOrg,
  signedInMember,
  usableDestination,
  withCookie,
  type Harness,
  type SeededOrg,
} from './harness.ts';

// The organization's own controls (docs/controls.md): its policy, and requests that wait for its members.
const EVERYONE = [...ALL_PERMISSIONS, 'portal:policy', 'portal:approve'];

for (const backend of backends()) {
  describe(`organization controls [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
      await btcUsdMarket(h);
    });
    after(async () => h?.close());

    /** An organization whose key is issued by its first member, with two more members signed in. */
    async function team(balances: Record<string, string> = { USD: '10000000', BTC: '100000000' }) {
      const o = await seedOrg(h, { balances, permissions: EVERYONE });
      const a = await signedInMember(h, o.orgId, EVERYONE);
      const b = await signedInMember(h, o.orgId, EVERYONE);
      const dst = await usableDestination(h, o.key);
      return { o, a, b, dst };
    }
    const portal = (cookie: string, method: string, path: string, body?: unknown) =>
      withCookie(h, cookie, method, `/portal/v1${path}`, body);
    const withdraw = (o: SeededOrg, dst: string, amountMinor: string) =>
      h.call(o.key, 'POST', '/withdrawals', { destinationId: dst, assetSymbol: 'USD', assetDecimals: 2, amountMinor });
    const opPending = async () =>
      (await h.op('GET', '/withdrawals?state=pending_approval&limit=100')).body.data.map((x: { id: string }) => x.id);

    test('no rules: the policy is empty and records carry no approvals, exactly as before', async () => {
      const { o, a, dst } = await team();
      assert.deepEqual((await portal(a.cookie, 'GET', '/policy')).body.data, { rules: [], updatedAt: null, updatedBy: null });
      const w = await withdraw(o, dst, '2000000');
      assert.equal(w.status, 201, w.raw);
      assert.equal('approvals' in w.body.data, false);
      assert.ok((await opPending()).includes(w.body.data.id));
      assert.equal((await h.op('POST', `/withdrawals/${w.body.data.id}/approve`)).status, 200);
    });

    test('PUT replaces the rules in order; bad rules are 422 with their own code and change nothing; portal:policy is needed', async () => {
      const { a, o } = await team();
      const rules = [
        { action: 'withdrawal', assetSymbol: 'USD', fromAmountMinor: '1000000', approvals: 1 },
        { action: 'order', fromAmountMinor: '123456789012345678901234567890', approvals: 2 },
      ];
      const r = await portal(a.cookie, 'PUT', '/policy', { rules });
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(r.body.data.rules, [
        { action: 'withdrawal', assetSymbol: 'USD', fromAmountMinor: '1000000', approvals: 1 },
        { action: 'order', assetSymbol: null, fromAmountMinor: '123456789012345678901234567890', approvals: 2 },
      ]);
      assert.equal(r.body.data.updatedBy.id, a.memberId);
      const bad: Array<[unknown, string]> = [
        [[{ action: 'transfer', approvals: 1 }], 'policy.unknown_action'],
        [[{ action: 'order', approvals: 6 }], 'policy.approvals_out_of_range'],
        [[{ action: 'order', fromAmountMinor: '1.5', approvals: 1 }], 'request.invalid_amount'],
        [[{ action: 'order', fromAmountMinor: '-1', approvals: 1 }], 'request.invalid_amount'],
        [[{ action: 'destination', fromAmountMinor: '5', approvals: 1 }], 'policy.field_not_applicable'],
        [
          [
            { action: 'order', approvals: 1 },
            { action: 'order', assetSymbol: 'BTC', approvals: 2 },
          ],
          'policy.rule_never_matches',
        ],
      ];
      for (const [body, code] of bad) {
        const x = await portal(a.cookie, 'PUT', '/policy', { rules: body });
        assert.deepEqual([x.status, x.body.code], [422, code], JSON.stringify(body));
      }
      assert.deepEqual((await portal(a.cookie, 'GET', '/policy')).body.data.rules, r.body.data.rules);
      const reader = await signedInMember(h, o.orgId, ['portal:read']);
      const refused = await portal(reader.cookie, 'PUT', '/policy', { rules: [] });
      assert.deepEqual([refused.status, refused.body.code], [403, 'auth.scope_missing']);
      assert.equal((await portal(reader.cookie, 'GET', '/policy')).status, 200);
    });

    test('a withdrawal at the threshold waits for two members, held; the operator cannot see or decide it before the quorum', async () => {
      const { o, a, b, dst } = await team();
      const c = await signedInMember(h, o.orgId, EVERYONE);
      await portal(a.cookie, 'PUT', '/policy', {
        rules: [{ action: 'withdrawal', assetSymbol: 'USD', fromAmountMinor: '1000000', approvals: 2 }],
      });
      // Below the threshold: as before.
      const small = await withdraw(o, dst, '999999');
      assert.equal('approvals' in small.body.data, false);
      const w = await withdraw(o, dst, '1000000');
      assert.equal(w.status, 201, w.raw);
      const id = w.body.data.id;
      assert.deepEqual(w.body.data.approvals, { required: 2, given: [], waitingFor: 'organization' });
      assert.equal(await held(h, o.key, 'USD'), 1999999n);
      assert.equal((await opPending()).includes(id), false);
      const early = await h.op('POST', `/withdrawals/${id}/approve`);
      assert.deepEqual([early.status, early.body.code], [409, 'approvals.waiting_for_organization']);
      const earlyReject = await h.op('POST', `/withdrawals/${id}/reject`, { reason: 'no' });
      assert.deepEqual([earlyReject.status, earlyReject.body.code], [409, 'approvals.waiting_for_organization']);

      const waiting = (await portal(b.cookie, 'GET', '/approvals?state=waiting')).body.data;
      assert.deepEqual(
        waiting.map((x: { kind: string; id: string; money: unknown; requestedBy: { id: string } }) => [
          x.kind,
          x.id,
          x.money,
          x.requestedBy.id,
        ]),
        [['withdrawals', id, { assetSymbol: 'USD', assetDecimals: 2, amountMinor: '1000000' }, o.memberId]],
      );
      let r = await portal(a.cookie, 'POST', `/approvals/withdrawals/${id}/approve`);
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(
        [r.body.data.state, r.body.data.approvals.waitingFor, r.body.data.approvals.given.length],
        ['pending_approval', 'organization', 1],
      );
      r = await portal(a.cookie, 'POST', `/approvals/withdrawals/${id}/approve`);
      assert.deepEqual([r.status, r.body.code], [409, 'approvals.already_given']);
      r = await portal(c.cookie, 'POST', `/approvals/withdrawals/${id}/approve`);
      assert.equal(r.body.data.approvals.waitingFor, 'operator');
      assert.deepEqual(
        r.body.data.approvals.given.map((g: { memberId: string }) => g.memberId),
        [a.memberId, c.memberId],
      );
      const read = await h.call(o.key, 'GET', `/withdrawals/${id}`);
      assert.equal(read.body.data.approvals.waitingFor, 'operator');
      assert.equal((await portal(b.cookie, 'GET', '/approvals')).body.data.length, 0);
      assert.ok((await opPending()).includes(id));
      const done = await h.op('POST', `/withdrawals/${id}/approve`);
      assert.equal(done.body.data.state, 'completed', done.raw);
      assert.equal(await held(h, o.key, 'USD'), 999999n);

      // approval.given is an event of the organization, and an audit entry per approval.
      await eventsSettled(h, o.orgId);
      const types = (await h.call(o.key, 'GET', `/events?subjectId=${id}`)).body.data.map((e: { type: string }) => e.type);
      assert.deepEqual(
        types.filter((t: string) => t.startsWith('approval.')),
        ['approval.requested', 'approval.given', 'approval.given'],
      );
      const audit = (await h.op('GET', `/audit?subjectId=${id}&limit=100`)).body.data ?? [];
      if (Array.isArray(audit) && audit.length > 0)
        assert.equal(audit.filter((x: { action: string }) => x.action === 'approval.given').length, 2);
    });

    test('a request made with an API key belongs to its issuer, who cannot approve it', async () => {
      const { a, b, dst } = await team();
      await portal(a.cookie, 'PUT', '/policy', { rules: [{ action: 'withdrawal', approvals: 1 }] });
      const issued = await portal(a.cookie, 'POST', '/api-keys', { scopes: ['portal:read', 'portal:withdraw'] });
      assert.equal(issued.status, 201, issued.raw);
      const w = await h.call(issued.body.data.key, 'POST', '/withdrawals', {
        destinationId: dst,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '5000',
      });
      assert.equal(w.status, 201, w.raw);
      const own = await portal(a.cookie, 'POST', `/approvals/withdrawals/${w.body.data.id}/approve`);
      assert.deepEqual([own.status, own.body.code], [409, 'approvals.own_request']);
      const waiting = (await portal(b.cookie, 'GET', '/approvals')).body.data;
      assert.deepEqual(
        waiting.map((x: { requestedBy: { id: string } }) => x.requestedBy.id),
        [a.memberId],
      );
      assert.equal((await portal(b.cookie, 'POST', `/approvals/withdrawals/${w.body.data.id}/approve`)).status, 200);
    });

    test('a rejection ends it: rejected, reason kept, the hold released once; the initiator (a member) cannot approve', async () => {
      const { a, b, dst, o } = await team();
      await portal(a.cookie, 'PUT', '/policy', { rules: [{ action: 'withdrawal', approvals: 1 }] });
      const before = await available(h, o.key, 'USD');
      // b asks in the portal's way (a session, not a key): b is the initiator.
      const w = await withCookie(h, b.cookie, 'POST', '/api/v1/withdrawals', {
        destinationId: dst,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '250000',
      });
      assert.equal(w.status, 201, w.raw);
      const id = w.body.data.id;
      const own = await portal(b.cookie, 'POST', `/approvals/withdrawals/${id}/approve`);
      assert.deepEqual([own.status, own.body.code], [409, 'approvals.own_request']);
      assert.equal(await available(h, o.key, 'USD'), before - 250000n);
      const r = await portal(a.cookie, 'POST', `/approvals/withdrawals/${id}/reject`, { reason: 'not this month' });
      assert.deepEqual([r.status, r.body.data.state], [200, 'rejected'], r.raw);
      const read = (await h.call(o.key, 'GET', `/withdrawals/${id}`)).body.data;
      assert.deepEqual([read.state, read.reason], ['rejected', 'not this month']);
      assert.equal(await available(h, o.key, 'USD'), before);
      const again = await portal(a.cookie, 'POST', `/approvals/withdrawals/${id}/approve`);
      assert.deepEqual([again.status, again.body.code], [409, 'approvals.not_waiting']);
      const other = await team();
      const foreign = await portal(other.a.cookie, 'POST', `/approvals/withdrawals/${id}/approve`);
      assert.deepEqual([foreign.status, foreign.body.code], [404, 'approvals.not_found']);
    });

    test('races: two members giving the last approval at once move it once; an approval and a rejection at once end one way, the hold released at most once', async () => {
      const { o, a, b, dst } = await team();
      await portal(a.cookie, 'PUT', '/policy', { rules: [{ action: 'withdrawal', approvals: 1 }] });
      const start = await available(h, o.key, 'USD');
      for (let i = 0; i < 3; i++) {
        const w = await withdraw(o, dst, '100000');
        const id = w.body.data.id;
        const rs = await Promise.all([a, b].map((m) => portal(m.cookie, 'POST', `/approvals/withdrawals/${id}/approve`)));
        assert.deepEqual(rs.map((r) => r.status).sort(), [200, 409], rs.map((r) => r.raw).join('\n'));
        const read = (await h.call(o.key, 'GET', `/withdrawals/${id}`)).body.data;
        assert.equal(read.approvals.given.length, 1);
        assert.equal(read.approvals.waitingFor, 'operator');
        assert.equal((await h.op('POST', `/withdrawals/${id}/reject`, { reason: 'r' })).status, 200);
      }
      assert.equal(await available(h, o.key, 'USD'), start);
      for (let i = 0; i < 3; i++) {
        const w = await withdraw(o, dst, '100000');
        const id = w.body.data.id;
        const [ap, rj] = await Promise.all([
          portal(a.cookie, 'POST', `/approvals/withdrawals/${id}/approve`),
          portal(b.cookie, 'POST', `/approvals/withdrawals/${id}/reject`, { reason: 'race' }),
        ]);
        assert.deepEqual([ap.status, rj.status].sort(), [200, 409], `${ap.raw}\n${rj.raw}`);
        const read = (await h.call(o.key, 'GET', `/withdrawals/${id}`)).body.data;
        if (rj.status === 200) assert.equal(read.state, 'rejected');
        else {
          assert.equal(read.approvals.waitingFor, 'operator');
          assert.equal((await h.op('POST', `/withdrawals/${id}/reject`, { reason: 'r' })).status, 200);
        }
      }
      // Every hold came back exactly once: the balance is where it started.
      assert.equal(await available(h, o.key, 'USD'), start);
      assert.equal(await held(h, o.key, 'USD'), 0n);
    });

    test('an order over a BTC rule waits for a member, keeps its quoted rate, and is the desk’s after the quorum', async () => {
      const { o, a } = await team();
      await portal(a.cookie, 'PUT', '/policy', {
        rules: [{ action: 'order', assetSymbol: 'BTC', fromAmountMinor: '1000000', approvals: 1 }],
      });
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
      const placed = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
      assert.equal(placed.status, 201, placed.raw);
      const id = placed.body.data.id;
      assert.deepEqual(placed.body.data.approvals, { required: 1, given: [], waitingFor: 'organization' });
      assert.equal(await held(h, o.key, 'BTC'), 1000000n);
      const early = await h.op('POST', `/orders/${id}/approve`);
      assert.deepEqual([early.status, early.body.code], [409, 'approvals.waiting_for_organization']);
      const r = await portal(a.cookie, 'POST', `/approvals/orders/${id}/approve`);
      assert.equal(r.body.data.approvals.waitingFor, 'operator', r.raw);
      const done = await h.op('POST', `/orders/${id}/approve`);
      assert.equal(done.status, 200, done.raw);
      const read = (await h.call(o.key, 'GET', `/orders/${id}`)).body.data;
      assert.deepEqual(
        [read.state, read.quote.amountMinor, read.rateQuoteMinor],
        ['completed', q.body.data.amountQuoteMinor ?? read.quote.amountMinor, placed.body.data.rateQuoteMinor],
      );
    });

    test('a policy change under a policy rule waits (202) and applies once another member approves it', async () => {
      const { a, b } = await team();
      await portal(a.cookie, 'PUT', '/policy', { rules: [{ action: 'policy', approvals: 1 }] });
      const r = await portal(a.cookie, 'PUT', '/policy', {
        rules: [
          { action: 'withdrawal', approvals: 1 },
          { action: 'policy', approvals: 1 },
        ],
      });
      assert.equal(r.status, 202, r.raw);
      assert.equal(r.body.data.state, 'pending_approval');
      assert.deepEqual((await portal(b.cookie, 'GET', '/policy')).body.data.rules, [
        { action: 'policy', assetSymbol: null, fromAmountMinor: null, approvals: 1 },
      ]);
      const own = await portal(a.cookie, 'POST', `/approvals/policy/${r.body.data.id}/approve`);
      assert.equal(own.body.code, 'approvals.own_request');
      const ok = await portal(b.cookie, 'POST', `/approvals/policy/${r.body.data.id}/approve`);
      assert.deepEqual([ok.status, ok.body.data.state], [200, 'applied'], ok.raw);
      const now = (await portal(b.cookie, 'GET', '/policy')).body.data;
      assert.equal(now.rules.length, 2);
      assert.equal(now.updatedBy.id, a.memberId);
    });
  });
}
