import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ManualClock } from '../src/domain/ports.ts';
import {
  ALL_PERMISSIONS,
  backends,
  btcUsdMarket,
  eventsSettled,
  makeHarness,
  seedOrg,
  signedInMember,
  withCookie,
  type Harness,
} from './harness.ts';

// A destination under the organization's `destination` rule (docs/controls.md).
const EVERYONE = [...ALL_PERMISSIONS, 'portal:policy', 'portal:approve'];
const COOLDOWN = 60_000; // shorter than a session stays idle
const BECH32 = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
let accounts = 0;

for (const backend of backends()) {
  describe(`destinations waiting for the organization [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend, manualClock: true, env: { CAMBIO_DESTINATION_COOLDOWN_MS: String(COOLDOWN) } });
      await btcUsdMarket(h);
    });
    after(async () => h?.close());
    const clock = () => h.clock as ManualClock;

    async function team(rules: unknown[]) {
      const o = await seedOrg(h, { balances: { USD: '10000000', BTC: '100000000' }, permissions: EVERYONE });
      const a = await signedInMember(h, o.orgId, EVERYONE);
      const b = await signedInMember(h, o.orgId, EVERYONE);
      const c = await signedInMember(h, o.orgId, EVERYONE);
      const put = await portal(a.cookie, 'PUT', '/policy', { rules });
      assert.equal(put.status, 200, put.raw);
      return { o, a, b, c };
    }
    const portal = (cookie: string, method: string, path: string, body?: unknown) =>
      withCookie(h, cookie, method, `/portal/v1${path}`, body);
    const bank = (key: string, accountNumber = `5500${++accounts}`) =>
      h.call(key, 'POST', '/withdrawals/destinations/bank', {
        label: 'Payroll',
        assetSymbol: 'USD',
        bankName: 'Banco Río',
        accountKind: 'checking',
        accountNumber,
        holderName: 'Acme SA',
        holderDocument: '30-1',
      });
    const listed = async (key: string, id: string) =>
      ((await h.call(key, 'GET', '/withdrawals/destinations')).body.data as Array<{ id: string }>).find((d) => d.id === id) as
        { id: string; state?: string; usable: boolean; approvals?: { required: number; given: unknown[]; waitingFor: string } } | undefined;
    const withdraw = (key: string, destinationId: string) =>
      h.call(key, 'POST', '/withdrawals', { destinationId, assetSymbol: 'USD', assetDecimals: 2, amountMinor: '1000' });

    test('a bank destination a rule matches waits for two members; its cooldown starts at the quorum, then it pays out', async () => {
      const { o, a, b, c } = await team([{ action: 'destination', assetSymbol: 'USD', approvals: 2 }]);
      const r = await bank(o.key);
      assert.equal(r.status, 201, r.raw);
      const id = r.body.data.id;
      assert.deepEqual(
        [r.body.data.state, r.body.data.usable, r.body.data.approvals],
        ['pending_approval', false, { required: 2, given: [], waitingFor: 'organization' }],
      );
      assert.equal((await h.op('POST', `/destinations/${id}/register-in-market`)).status, 200);
      // Waiting long past its cooldown changes nothing: it is not usable while the members have not approved.
      clock().advance(2 * COOLDOWN);
      assert.equal((await listed(o.key, id))?.usable, false);
      const refused = await withdraw(o.key, id);
      assert.deepEqual([refused.status, refused.body.code], [422, 'withdrawals.destination_not_usable'], refused.raw);

      const waiting = (await portal(b.cookie, 'GET', '/approvals?state=waiting')).body.data;
      assert.deepEqual(
        waiting.map((x: { kind: string; id: string; requestedBy: { id: string } }) => [x.kind, x.id, x.requestedBy.id]),
        [['destinations', id, o.memberId]],
      );
      const first = await portal(a.cookie, 'POST', `/approvals/destinations/${id}/approve`);
      assert.equal(first.status, 200, first.raw);
      assert.deepEqual([first.body.data.state, first.body.data.approvals.waitingFor], ['pending_approval', 'organization']);
      const twice = await portal(a.cookie, 'POST', `/approvals/destinations/${id}/approve`);
      assert.deepEqual([twice.status, twice.body.code], [409, 'approvals.already_given']);
      const last = await portal(c.cookie, 'POST', `/approvals/destinations/${id}/approve`);
      assert.deepEqual([last.status, last.body.data.state, last.body.data.approvals.given.length], [200, 'active', 2], last.raw);

      // The cooldown (a minute) starts now, not when it was registered.
      let now = await listed(o.key, id);
      assert.deepEqual([now?.state, now?.usable, now?.approvals?.waitingFor], ['active', false, 'operator']);
      const op = (await h.op('GET', `/destinations?organizationId=${o.orgId}`)).body.data.find((d: { id: string }) => d.id === id);
      assert.equal(op.cooldownUntil, new Date(clock().now().getTime() + COOLDOWN).toISOString());
      clock().advance(COOLDOWN - 1);
      assert.equal((await listed(o.key, id))?.usable, false);
      clock().advance(1);
      now = await listed(o.key, id);
      assert.equal(now?.usable, true);
      assert.equal((await withdraw(o.key, id)).status, 201);
      assert.equal((await portal(b.cookie, 'GET', '/approvals')).body.data.length, 0);
      const after = await portal(b.cookie, 'POST', `/approvals/destinations/${id}/approve`);
      assert.deepEqual([after.status, after.body.code], [409, 'approvals.not_waiting']);

      await eventsSettled(h, o.orgId);
      const types = (await h.call(o.key, 'GET', `/events?subjectId=${id}`)).body.data.map((e: { type: string }) => e.type);
      assert.deepEqual(
        types.filter((t: string) => t.startsWith('approval.')),
        ['approval.requested', 'approval.given', 'approval.given'],
      );
      const audit = (await h.op('GET', `/audit?subjectId=${id}&limit=100`)).body.data;
      assert.deepEqual(
        audit.map((x: { action: string }) => x.action).filter((x: string) => x.startsWith('approval.')),
        ['approval.given', 'approval.given'],
      );
    });

    test('a crypto address under a rule is pending; a rejection ends it (rejected, never usable) and the address may be registered again', async () => {
      const { o, a, b } = await team([{ action: 'destination', approvals: 1 }]);
      const body = { label: 'Cold', assetSymbol: 'BTC', network: 'bitcoin', address: BECH32 };
      const r = await h.call(o.key, 'POST', '/withdrawals/destinations/crypto', body);
      assert.equal(r.status, 201, r.raw);
      const id = r.body.data.id;
      assert.deepEqual([r.body.data.state, r.body.data.approvals.required], ['pending_approval', 1]);
      const no = await portal(b.cookie, 'POST', `/approvals/destinations/${id}/reject`, { reason: 'unknown wallet' });
      assert.deepEqual([no.status, no.body.data.state], [200, 'rejected'], no.raw);
      const gone = await listed(o.key, id);
      assert.deepEqual([gone?.state, gone?.usable], ['rejected', false]);
      assert.equal((await h.op('POST', `/destinations/${id}/register-in-market`)).status, 200);
      assert.equal((await listed(o.key, id))?.usable, false);
      const again = await portal(a.cookie, 'POST', `/approvals/destinations/${id}/approve`);
      assert.deepEqual([again.status, again.body.code], [409, 'approvals.not_waiting']);
      const second = await h.call(o.key, 'POST', '/withdrawals/destinations/crypto', body);
      assert.equal(second.status, 201, second.raw);
      assert.notEqual(second.body.data.id, id);
      assert.equal(second.body.data.state, 'pending_approval');
      // Another organization's member cannot see or decide it.
      const other = await team([]);
      const foreign = await portal(other.a.cookie, 'POST', `/approvals/destinations/${second.body.data.id}/approve`);
      assert.deepEqual([foreign.status, foreign.body.code], [404, 'approvals.not_found']);
      // No rule for USD bank accounts in an organization without rules: active at once, as before.
      const plain = await bank(other.o.key);
      assert.equal(plain.status, 201, plain.raw);
      assert.equal('state' in plain.body.data || 'approvals' in plain.body.data, false);
    });

    test('races: two last approvals at once activate it once; an approval and a rejection at once end one way', async () => {
      const { o, a, b } = await team([{ action: 'destination', approvals: 1 }]);
      for (let i = 0; i < 3; i++) {
        const id = (await bank(o.key)).body.data.id;
        const rs = await Promise.all([a, b].map((m) => portal(m.cookie, 'POST', `/approvals/destinations/${id}/approve`)));
        assert.deepEqual(rs.map((r) => r.status).sort(), [200, 409], rs.map((r) => r.raw).join('\n'));
        const d = await listed(o.key, id);
        assert.deepEqual([d?.state, d?.approvals?.given.length], ['active', 1]);
      }
      for (let i = 0; i < 3; i++) {
        const id = (await bank(o.key)).body.data.id;
        const [ap, rj] = await Promise.all([
          portal(a.cookie, 'POST', `/approvals/destinations/${id}/approve`),
          portal(b.cookie, 'POST', `/approvals/destinations/${id}/reject`, { reason: 'race' }),
        ]);
        assert.deepEqual([ap.status, rj.status].sort(), [200, 409], `${ap.raw}\n${rj.raw}`);
        const d = await listed(o.key, id);
        assert.equal(d?.state, rj.status === 200 ? 'rejected' : 'active');
        const audit = (await h.op('GET', `/audit?subjectId=${id}&limit=100`)).body.data;
        assert.equal(audit.filter((x: { action: string }) => x.action.startsWith('approval.')).length, 1);
      }
    });
  });
}
