import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  available,
  backends,
  btcUsdMarket,
  makeHarness,
  seedOrg,
  signedInStaff,
  usableDestination,
  withCookie,
  type Harness,
} from './harness.ts';

// The operator's policy (docs/controls.md): drafts, publication by another admin, and the rules at work.
type Staff = Awaited<ReturnType<typeof signedInStaff>>;

for (const backend of backends()) {
  describe(`the operator's policy [${backend}]`, () => {
    let h: Harness;
    let ana: Staff; // admin
    let bea: Staff; // admin
    let cal: Staff; // admin
    let dan: Staff; // approver
    let eva: Staff; // approver
    before(async () => {
      h = await makeHarness({ backend, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
      await btcUsdMarket(h);
      assert.equal((await h.op('PUT', '/wallets/USD', { network: 'wire', address: 'usd-acct-1' })).status, 200);
      [ana, bea, cal, dan, eva] = await Promise.all([
        signedInStaff(h, 'admin'),
        signedInStaff(h, 'admin'),
        signedInStaff(h, 'admin'),
        signedInStaff(h, 'approver'),
        signedInStaff(h, 'approver'),
      ]);
    });
    after(async () => h?.close());

    const as = (s: Staff, method: string, path: string, body?: unknown) => withCookie(h, s.cookie, method, `/operator/v1${path}`, body);
    /** Ana drafts, Bea publishes: the rules are in force. */
    async function publish(rules: unknown[]) {
      const d = await as(ana, 'PUT', '/policies/rules', { rules });
      assert.equal(d.status, 201, d.raw);
      const p = await as(bea, 'POST', `/policies/drafts/${d.body.data.id}/publish`);
      assert.equal(p.status, 200, p.raw);
    }
    const arrive = (amountMinor: string) =>
      h.op('POST', '/deposits', { assetSymbol: 'USD', network: 'wire', amountMinor, txid: `tx-${randomBytes(6).toString('hex')}` });

    test('a draft waits beside the published rules until another admin publishes it; its author, the bootstrap token and a viewer cannot', async () => {
      const rules = [
        { action: 'withdrawal', assetSymbol: 'USD', fromAmountMinor: '1000000', approvals: 3, roles: ['admin'] },
        { action: 'adjustment', organizationId: 'org_x', approvals: 2 },
        { action: 'attribution', fromAmountMinor: 123456789012345678901234567890n.toString(), approvals: 1 },
      ];
      const d = await as(ana, 'PUT', '/policies/rules', { rules });
      assert.equal(d.status, 201, d.raw);
      assert.deepEqual([d.body.data.state, d.body.data.author], ['draft', { actor: `staff:${ana.staffId}`, name: ana.name }]);
      assert.deepEqual(d.body.data.rules, [
        { action: 'withdrawal', assetSymbol: 'USD', organizationId: null, fromAmountMinor: '1000000', approvals: 3, roles: ['admin'] },
        {
          action: 'adjustment',
          assetSymbol: null,
          organizationId: 'org_x',
          fromAmountMinor: null,
          approvals: 2,
          roles: ['approver', 'admin'],
        },
        {
          action: 'attribution',
          assetSymbol: null,
          organizationId: null,
          fromAmountMinor: '123456789012345678901234567890',
          approvals: 1,
          roles: ['approver', 'admin'],
        },
      ]);
      const before = (await h.op('GET', '/policies/rules')).body.data;
      assert.deepEqual(before.rules, []);
      assert.deepEqual(
        (await as(dan, 'GET', '/policies/drafts')).body.data.map((x: { id: string }) => x.id),
        [d.body.data.id],
      );
      const own = await as(ana, 'POST', `/policies/drafts/${d.body.data.id}/publish`);
      assert.deepEqual([own.status, own.body.code], [409, 'policies.own_draft']);
      const boot = await h.op('POST', `/policies/drafts/${d.body.data.id}/publish`);
      assert.deepEqual([boot.status, boot.body.code], [403, 'policies.publish_needs_person']);
      const approver = await as(dan, 'POST', `/policies/drafts/${d.body.data.id}/publish`);
      assert.deepEqual([approver.status, approver.body.code], [403, 'auth.role_missing']);
      const viewer = await signedInStaff(h, 'viewer');
      const write = await withCookie(h, viewer.cookie, 'PUT', '/operator/v1/policies/rules', { rules: [] });
      assert.deepEqual([write.status, write.body.code], [403, 'auth.role_missing']);
      assert.deepEqual((await h.op('GET', '/policies/rules')).body.data.rules, []);

      const ok = await as(bea, 'POST', `/policies/drafts/${d.body.data.id}/publish`);
      assert.deepEqual([ok.status, ok.body.data.state, ok.body.data.publishedBy.actor], [200, 'published', `staff:${bea.staffId}`]);
      const now = (await withCookie(h, viewer.cookie, 'GET', '/operator/v1/policies/rules')).body.data;
      assert.deepEqual([now.rules, now.draftId, now.publishedBy.name], [d.body.data.rules, d.body.data.id, bea.name]);
      const again = await as(cal, 'POST', `/policies/drafts/${d.body.data.id}/publish`);
      assert.deepEqual([again.status, again.body.code], [409, 'policies.draft_not_open']);
      assert.deepEqual((await as(dan, 'GET', '/policies/drafts')).body.data, []);
      const audit = (await h.op('GET', `/audit?subjectId=${d.body.data.id}&limit=10`)).body.data.map((x: { action: string }) => x.action);
      assert.deepEqual(audit, ['policy.publish', 'policy.draft']);
      await publish([]);
    });

    test('bad rules are 422 with a code of their own and write no draft', async () => {
      const bad: Array<[unknown, string]> = [
        [[{ action: 'destination', approvals: 2 }], 'policies.unknown_action'],
        [[{ action: 'order', approvals: 0 }], 'policies.approvals_out_of_range'],
        [[{ action: 'order', approvals: 6 }], 'policies.approvals_out_of_range'],
        [[{ action: 'order', approvals: 2, roles: ['auditor'] }], 'policies.unknown_role'],
        [[{ action: 'order', approvals: 2, roles: [] }], 'policies.unknown_role'],
        [[{ action: 'order', fromAmountMinor: '1.5', approvals: 2 }], 'request.invalid_amount'],
        [
          [
            { action: 'order', approvals: 2 },
            { action: 'order', assetSymbol: 'BTC', approvals: 3 },
          ],
          'policies.rule_never_matches',
        ],
      ];
      for (const [rules, code] of bad) {
        const r = await as(ana, 'PUT', '/policies/rules', { rules });
        assert.deepEqual([r.status, r.body.code], [422, code], JSON.stringify(rules));
      }
      assert.deepEqual((await as(ana, 'GET', '/policies/drafts')).body.data, []);
    });

    test('races: two admins publishing two drafts at once publish one; the same draft twice at once, once', async () => {
      for (let i = 0; i < 3; i++) {
        const one = (await as(ana, 'PUT', '/policies/rules', { rules: [{ action: 'order', approvals: 2 }] })).body.data.id;
        const two = (await as(cal, 'PUT', '/policies/rules', { rules: [{ action: 'order', approvals: 3 }] })).body.data.id;
        const rs = await Promise.all([
          as(bea, 'POST', `/policies/drafts/${one}/publish`),
          as(ana, 'POST', `/policies/drafts/${two}/publish`),
        ]);
        assert.deepEqual(rs.map((r) => r.status).sort(), [200, 409], rs.map((r) => r.raw).join('\n'));
        const won = rs[0]!.status === 200 ? one : two;
        assert.equal((await h.op('GET', '/policies/rules')).body.data.draftId, won);
        const three = (await as(ana, 'PUT', '/policies/rules', { rules: [] })).body.data.id;
        const same = await Promise.all([bea, cal].map((s) => as(s, 'POST', `/policies/drafts/${three}/publish`)));
        assert.deepEqual(same.map((r) => r.status).sort(), [200, 409], same.map((r) => r.raw).join('\n'));
        const audit = (await h.op('GET', `/audit?subjectId=${three}&limit=10`)).body.data.map((x: { action: string }) => x.action);
        assert.deepEqual(audit, ['policy.publish', 'policy.draft']);
      }
    });

    test('a withdrawal under a rule of three admins: an approver does not count, the bootstrap token cannot approve, the third admin settles it', async () => {
      await publish([{ action: 'withdrawal', assetSymbol: 'USD', fromAmountMinor: '1000000', approvals: 3, roles: ['admin'] }]);
      const o = await seedOrg(h, { balances: { USD: '5000000' } });
      const dst = await usableDestination(h, o.key);
      const w = await h.call(o.key, 'POST', '/withdrawals', {
        destinationId: dst,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '1000000',
      });
      const id = w.body.data.id;
      const byApprover = await as(dan, 'POST', `/withdrawals/${id}/approve`, {});
      assert.deepEqual([byApprover.status, byApprover.body.code], [403, 'policies.role_not_counted'], byApprover.raw);
      const boot = await h.op('POST', `/withdrawals/${id}/approve`, {});
      assert.deepEqual([boot.status, boot.body.code], [403, 'withdrawals.approval_needs_person']);
      for (const [s, state, n] of [
        [ana, 'pending_approval', 1],
        [bea, 'pending_approval', 2],
      ] as const) {
        const r = await as(s, 'POST', `/withdrawals/${id}/approve`, {});
        assert.deepEqual(
          [r.status, r.body.data.state, r.body.data.approvals.length, r.body.data.approvalsRequired],
          [200, state, n, 3],
          r.raw,
        );
      }
      const twice = await as(bea, 'POST', `/withdrawals/${id}/approve`, {});
      assert.deepEqual([twice.status, twice.body.code], [409, 'withdrawals.already_approved_by_you']);
      const last = await as(cal, 'POST', `/withdrawals/${id}/approve`, {});
      assert.deepEqual([last.status, last.body.data.state], [200, 'completed'], last.raw);
      // Below the rule: one approval by anyone who decides, the bootstrap token included, as before.
      const small = await h.call(o.key, 'POST', '/withdrawals', {
        destinationId: dst,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '999999',
      });
      assert.equal((await h.op('POST', `/withdrawals/${small.body.data.id}/approve`, {})).body.data.state, 'completed');
      await publish([]);
    });

    test('an adjustment under a rule of two waits as a request: its asker counts once, another person applies it; a rejection applies nothing', async () => {
      const o = await seedOrg(h, { balances: { USD: '1000' } });
      await publish([{ action: 'adjustment', organizationId: o.orgId, fromAmountMinor: '5000', approvals: 2 }]);
      // Under the threshold (by size, either sign): at once.
      const small = await as(ana, 'POST', `/organizations/${o.orgId}/adjustments`, {
        assetSymbol: 'USD',
        amountMinor: '-999',
        reason: 'fee',
      });
      assert.deepEqual([small.status, small.body.data.availableMinor], [201, '1'], small.raw);
      const r = await as(ana, 'POST', `/organizations/${o.orgId}/adjustments`, {
        assetSymbol: 'USD',
        amountMinor: '-5000',
        reason: 'chargeback',
      });
      assert.equal(r.status, 202, r.raw);
      const id = r.body.data.id;
      assert.deepEqual(
        [r.body.data.kind, r.body.data.state, r.body.data.amountMinor, r.body.data.approvalsRequired, r.body.data.approvals.length],
        ['adjustment', 'pending_approval', '-5000', 2, 1],
      );
      const more = await as(ana, 'POST', `/organizations/${o.orgId}/adjustments`, {
        assetSymbol: 'USD',
        amountMinor: '7000',
        reason: 'top-up',
      });
      assert.equal(more.status, 202);
      assert.equal(await available(h, o.key, 'USD'), 1n);
      const queue = (await as(dan, 'GET', '/requests?state=pending_approval')).body.data.map((x: { id: string }) => x.id);
      assert.deepEqual(queue.slice(0, 2), [more.body.data.id, id]);
      const self = await as(ana, 'POST', `/requests/${id}/approve`);
      assert.deepEqual([self.status, self.body.code], [409, 'requests.already_approved_by_you']);
      const boot = await h.op('POST', `/requests/${id}/approve`);
      assert.deepEqual([boot.status, boot.body.code], [403, 'requests.approval_needs_person']);
      const done = await as(dan, 'POST', `/requests/${more.body.data.id}/approve`);
      assert.deepEqual([done.status, done.body.data.state], [200, 'applied'], done.raw);
      assert.equal(await available(h, o.key, 'USD'), 7001n);
      const no = await as(bea, 'POST', `/requests/${id}/reject`, { reason: 'not ours' });
      assert.deepEqual([no.status, no.body.data.state, no.body.data.reason], [200, 'rejected', 'not ours']);
      const late = await as(dan, 'POST', `/requests/${id}/approve`);
      assert.deepEqual([late.status, late.body.code], [409, 'requests.not_waiting']);
      assert.equal(await available(h, o.key, 'USD'), 7001n);
      // The bootstrap token asks for one and counts for nothing: two persons apply it.
      const asked = await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '6000', reason: 'x' });
      assert.deepEqual([asked.status, asked.body.data.approvals], [202, []]);
      assert.equal((await as(dan, 'POST', `/requests/${asked.body.data.id}/approve`)).body.data.state, 'pending_approval');
      assert.equal((await as(eva, 'POST', `/requests/${asked.body.data.id}/approve`)).body.data.state, 'applied');
      assert.equal(await available(h, o.key, 'USD'), 13001n);
      await publish([]);
    });

    test('attributions under a rule of two: races of two last approvals credit once; an approval racing a rejection ends one way', async () => {
      const o = await seedOrg(h);
      await publish([{ action: 'attribution', assetSymbol: 'USD', approvals: 2 }]);
      let credited = 0n;
      for (let i = 0; i < 3; i++) {
        const dep = await arrive('1000');
        assert.equal(dep.body.data.state, 'unattributed', dep.raw);
        const r = await as(dan, 'POST', `/deposits/${dep.body.data.id}/attribute`, { organizationId: o.orgId });
        assert.equal(r.status, 202, r.raw);
        const dup = await as(eva, 'POST', `/deposits/${dep.body.data.id}/attribute`, { organizationId: o.orgId });
        assert.deepEqual([dup.status, dup.body.code], [409, 'requests.already_pending']);
        const rs = await Promise.all([eva, ana].map((s) => as(s, 'POST', `/requests/${r.body.data.id}/approve`)));
        assert.deepEqual(rs.map((x) => x.status).sort(), [200, 409], rs.map((x) => x.raw).join('\n'));
        credited += 1000n;
        assert.equal(await available(h, o.key, 'USD'), credited);
        const read = (await h.op('GET', '/deposits?state=credited&limit=100')).body.data.find(
          (x: { id: string }) => x.id === dep.body.data.id,
        );
        assert.equal(read.organizationId, o.orgId);
      }
      for (let i = 0; i < 3; i++) {
        const dep = await arrive('500');
        const r = await as(dan, 'POST', `/deposits/${dep.body.data.id}/attribute`, { organizationId: o.orgId });
        const [ap, rj] = await Promise.all([
          as(eva, 'POST', `/requests/${r.body.data.id}/approve`),
          as(ana, 'POST', `/requests/${r.body.data.id}/reject`, { reason: 'race' }),
        ]);
        assert.deepEqual([ap.status, rj.status].sort(), [200, 409], `${ap.raw}\n${rj.raw}`);
        if (ap.status === 200) credited += 500n;
        assert.equal(await available(h, o.key, 'USD'), credited);
      }
      await publish([]);
    });
  });
}
