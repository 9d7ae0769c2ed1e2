import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ALL_PERMISSIONS,
  backends,
  btcUsdMarket,
  makeHarness,
  seedOrg,
  signedInMember,
  usableDestination,
  withCookie,
  type Harness,
} from './harness.ts';

// The organization's own audit trail (docs/controls.md, "Auditors"): GET /portal/v1/audit, portal:audit.
const EVERYONE = [...ALL_PERMISSIONS, 'portal:policy', 'portal:approve', 'portal:audit'];

interface Entry {
  actor: { type: string; id: string | null; name: string | null };
  action: string;
  subjectType: string;
  subjectId: string;
  before: unknown;
  after: unknown;
  createdAt: string;
}

for (const backend of backends()) {
  describe(`organization audit trail [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
      await btcUsdMarket(h);
    });
    after(async () => h?.close());

    const audit = (cookie: string, query = '') => withCookie(h, cookie, 'GET', `/portal/v1/audit${query}`);

    test("who, what, when, before and after of the organization's own records, newest first; the operator unnamed; never another organization's", async () => {
      const o = await seedOrg(h, { name: 'Audited', balances: { USD: '10000000' }, permissions: EVERYONE });
      const a = await signedInMember(h, o.orgId, EVERYONE);
      const b = await signedInMember(h, o.orgId, EVERYONE);
      const dst = await usableDestination(h, o.key);
      const rules = [{ action: 'withdrawal', assetSymbol: 'USD', fromAmountMinor: '100000', approvals: 1 }];
      assert.equal((await withCookie(h, a.cookie, 'PUT', '/portal/v1/policy', { rules })).status, 200);
      const w = await withCookie(h, a.cookie, 'POST', '/api/v1/withdrawals', {
        destinationId: dst,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '250000',
      });
      assert.equal(w.status, 201, w.raw);
      const approved = await withCookie(h, b.cookie, 'POST', `/portal/v1/approvals/withdrawals/${w.body.data.id}/approve`);
      assert.equal(approved.status, 200, approved.raw);
      assert.equal(
        (await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '1', reason: 'fee refund' }))
          .status,
        201,
      );

      // Another organization's doings never show.
      const other = await seedOrg(h, { name: 'Elsewhere', permissions: EVERYONE });
      const x = await signedInMember(h, other.orgId, EVERYONE);
      assert.equal((await withCookie(h, x.cookie, 'PUT', '/portal/v1/policy', { rules: [{ action: 'order', approvals: 2 }] })).status, 200);

      const r = await audit(b.cookie, '?limit=100');
      assert.equal(r.status, 200, r.raw);
      const entries = r.body.data as Entry[];
      const policy = entries.find((e) => e.subjectType === 'policy')!;
      assert.deepEqual(
        [policy.actor, policy.action, policy.subjectId, policy.before, policy.after],
        [
          { type: 'member', id: a.memberId, name: (await names(h, o.orgId)).get(a.memberId) },
          'policy.update',
          o.orgId,
          { rules: [] },
          { rules: [{ action: 'withdrawal', assetSymbol: 'USD', fromAmountMinor: '100000', approvals: 1 }] },
        ],
      );
      const approval = entries.find((e) => e.subjectId === w.body.data.id && e.actor.id === b.memberId);
      assert.ok(approval, 'the approval is in the trail, by the member who gave it');
      assert.equal(approval.actor.type, 'member');
      const adjustment = entries.find((e) => JSON.stringify(e.after ?? {}).includes('fee refund'));
      assert.deepEqual(adjustment?.actor, { type: 'operator', id: null, name: null }, 'the operator is not named');
      assert.equal(r.raw.includes(other.orgId), false, "another organization's entries never show");
      assert.equal(r.raw.includes(x.memberId), false);
      const times = entries.map((e) => e.createdAt);
      assert.deepEqual([...times].sort().reverse(), times, 'newest first');

      const page = await audit(a.cookie, '?limit=2&page=1');
      assert.equal(page.body.data.length, 2);
      assert.equal(page.body.pagination.total, entries.length);
    });

    test('never a secret: an issued key and an invitation are in the trail without the key or the link', async () => {
      const o = await seedOrg(h, { permissions: EVERYONE });
      const a = await signedInMember(h, o.orgId, EVERYONE);
      const key = await h.op('POST', `/members/${o.memberId}/api-keys`, { scopes: ['portal:read'] });
      assert.equal(key.status, 201, key.raw);
      const invited = await withCookie(h, a.cookie, 'POST', '/portal/v1/team/members', {
        name: 'Nina',
        email: 'nina@audited.test',
        permissions: ['portal:read'],
      });
      assert.equal(invited.status, 201, invited.raw);
      const r = await audit(a.cookie, '?limit=100');
      const actions = (r.body.data as Entry[]).map((e) => e.action);
      assert.ok(actions.includes('api_key.issue') && actions.includes('member.create'), actions.join(', '));
      const secret = (key.body.data.key as string).split('.')[1]!;
      const token = (invited.body.data.invitation.url as string).split('#')[1]!;
      assert.equal(r.raw.includes(secret), false, 'the key secret is never in the trail');
      assert.equal(r.raw.includes(token), false, 'the invitation token is never in the trail');
    });

    test('portal:audit is needed; a bad page is a 400 with its code', async () => {
      const o = await seedOrg(h, { permissions: EVERYONE });
      const reader = await signedInMember(h, o.orgId, ['portal:read']);
      const refused = await audit(reader.cookie);
      assert.deepEqual([refused.status, refused.body.code], [403, 'auth.scope_missing']);
      const auditor = await signedInMember(h, o.orgId, ['portal:audit']);
      assert.equal((await audit(auditor.cookie)).status, 200);
      const bad = await audit(auditor.cookie, '?limit=1000');
      assert.equal(bad.status, 400, bad.raw);
    });
  });
}

async function names(h: Harness, orgId: string): Promise<Map<string, string>> {
  const r = await h.op('GET', `/organizations/${orgId}/members`);
  return new Map((r.body.data as Array<{ id: string; name: string }>).map((m) => [m.id, m.name]));
}
