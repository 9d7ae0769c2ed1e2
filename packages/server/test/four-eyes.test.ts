import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Approver } from '../src/domain/approvals/four-eyes.ts';
import { DomainError } from '../src/domain/errors.ts';
import { approveOrder } from '../src/usecases/orders/decide-order.ts';
import { approveWithdrawal } from '../src/usecases/withdrawals/decide-withdrawal.ts';
import {
  available,
  backends,
  btcUsdMarket,
  held,
  makeHarness,
  seedOrg,
  usableDestination,
  type Harness,
  type SeededOrg,
} from './harness.ts';

// BTC/USD at 65000.00: 0.01 BTC (1000000) → the client receives 64675 USD cents.
const person = (id: string, name: string): Approver => ({
  actor: `staff:${id}`,
  person: { id, name, email: `${name.toLowerCase()}@desk.test`, role: 'approver' },
});
const ANA = person('stf_ana', 'Ana');
const BEA = person('stf_bea', 'Bea');
const CAL = person('stf_cal', 'Cal');

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof DomainError) return e.code;
    throw e;
  }
  return 'ok';
}

for (const backend of backends()) {
  describe(`four-eyes [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
      await btcUsdMarket(h);
    });
    after(async () => h?.close());

    async function order(o: SeededOrg, amountBaseMinor: string): Promise<string> {
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor });
      const r = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
      assert.equal(r.status, 201, r.raw);
      return r.body.data.id;
    }
    const opOrder = async (id: string) => (await h.op('GET', '/orders?limit=100')).body.data.find((x: { id: string }) => x.id === id);
    const opWithdrawal = async (id: string) =>
      (await h.op('GET', '/withdrawals?limit=100')).body.data.find((x: { id: string }) => x.id === id);

    test('policies: PUT sets and replaces a threshold per asset, null removes it, GET lists them; bad input changes nothing', async () => {
      let r = await h.op('PUT', '/policies/approvals/BTC', { secondApprovalFromMinor: '5000000' });
      assert.deepEqual([r.status, r.body.data], [200, { assetSymbol: 'BTC', secondApprovalFromMinor: '5000000' }]);
      r = await h.op('PUT', '/policies/approvals/USD', { secondApprovalFromMinor: 100000 });
      assert.deepEqual(r.body.data, { assetSymbol: 'USD', secondApprovalFromMinor: '100000' });
      assert.deepEqual((await h.op('GET', '/policies/approvals')).body.data, [
        { assetSymbol: 'BTC', secondApprovalFromMinor: '5000000' },
        { assetSymbol: 'USD', secondApprovalFromMinor: '100000' },
      ]);
      assert.deepEqual(
        [(r = await h.op('PUT', '/policies/approvals/XYZ', { secondApprovalFromMinor: '1' })).status, r.body.code],
        [422, 'market.asset_not_listed'],
      );
      assert.deepEqual(
        [(r = await h.op('PUT', '/policies/approvals/BTC', { secondApprovalFromMinor: '-1' })).status, r.body.code],
        [422, 'request.invalid_amount'],
      );
      assert.deepEqual(
        [(r = await h.op('PUT', '/policies/approvals/BTC', { secondApprovalFromMinor: '1.5' })).status, r.body.code],
        [422, 'request.invalid_amount'],
      );
      assert.equal(
        (await h.op('PUT', '/policies/approvals/USD', { secondApprovalFromMinor: null })).body.data.secondApprovalFromMinor,
        null,
      );
      assert.deepEqual((await h.op('GET', '/policies/approvals')).body.data, [{ assetSymbol: 'BTC', secondApprovalFromMinor: '5000000' }]);
      const trail = (await h.op('GET', '/audit?subjectId=USD')).body.data;
      assert.deepEqual(
        trail
          .filter((a: { action: string }) => a.action === 'policy.approvals.put')
          .map((a: { actor: string; after: unknown }) => [a.actor, a.after]),
        [
          ['bootstrap', { secondApprovalFromMinor: null }],
          ['bootstrap', { secondApprovalFromMinor: '100000' }],
        ],
      );
    });

    test('an order below the threshold needs one approval: the bootstrap token approves it, no person is recorded', async () => {
      const o = await seedOrg(h, { balances: { BTC: 10_000_000n } });
      const id = await order(o, '4999999');
      assert.deepEqual((await opOrder(id)).approvalsRequired, 1);
      const r = await h.op('POST', `/orders/${id}/approve`);
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual([r.body.data.state, r.body.data.approvals, r.body.data.approvalsRequired], ['completed', [], 1]);
    });

    test('an order at the threshold: bootstrap 403, a first person leaves it pending, the same person again 409, a second person settles it', async () => {
      const o = await seedOrg(h, { balances: { BTC: 10_000_000n } });
      const id = await order(o, '5000000');
      let r = await h.op('POST', `/orders/${id}/approve`);
      assert.deepEqual([r.status, r.body.code], [403, 'orders.approval_needs_person']);
      assert.deepEqual([(await opOrder(id)).state, await held(h, o.key, 'BTC')], ['pending_approval', 5_000_000n]);

      const first = await approveOrder(h.deps, ANA, id, null);
      assert.equal(first.state, 'pending_approval');
      const seen = await opOrder(id);
      assert.deepEqual(
        [seen.state, seen.approvalsRequired, seen.approvals.map((a: { staffId: string; name: string }) => [a.staffId, a.name])],
        ['pending_approval', 2, [['stf_ana', 'Ana']]],
      );
      assert.equal(await codeOf(approveOrder(h.deps, ANA, id, null)), 'orders.already_approved_by_you');
      assert.equal(await held(h, o.key, 'BTC'), 5_000_000n);
      r = await h.op('POST', `/orders/${id}/approve`);
      assert.deepEqual([r.status, r.body.code], [403, 'orders.approval_needs_person']);

      const done = await approveOrder(h.deps, BEA, id, null);
      assert.equal(done.state, 'completed');
      const final = await opOrder(id);
      assert.deepEqual(
        [final.state, final.approvalsRequired, final.approvals.map((a: { staffId: string }) => a.staffId)],
        ['completed', 2, ['stf_ana', 'stf_bea']],
      );
      assert.equal(await held(h, o.key, 'BTC'), 0n);
      assert.equal(await available(h, o.key, 'USD'), 323_375n);
      const trail = (await h.op('GET', `/audit?subjectId=${id}`)).body.data.map((a: { actor: string; action: string }) => [
        a.actor,
        a.action,
      ]);
      assert.deepEqual(trail, [
        ['staff:stf_bea', 'order.complete'],
        ['staff:stf_bea', 'order.approve'],
        ['staff:stf_ana', 'order.approval'],
      ]);
    });

    test('two persons at once on the last approval of an order: it settles once', async () => {
      const o = await seedOrg(h, { balances: { BTC: 10_000_000n } });
      const id = await order(o, '5000000');
      await approveOrder(h.deps, ANA, id, null);
      const codes = await Promise.all([BEA, CAL, BEA, CAL].map((p) => codeOf(approveOrder(h.deps, p, id, null))));
      assert.deepEqual(codes.filter((c) => c === 'ok').length, 1, codes.join());
      for (const c of codes.filter((x) => x !== 'ok'))
        assert.ok(['orders.already_decided', 'orders.already_approved_by_you'].includes(c), c);
      const final = await opOrder(id);
      assert.equal(final.state, 'completed');
      assert.equal(final.approvals.length, 2);
      assert.equal(await available(h, o.key, 'USD'), 323_375n);
      assert.equal(await available(h, o.key, 'BTC'), 5_000_000n);
      const executions = await h.store.db.selectFrom('venue_executions').select('order_id').where('order_id', '=', id).execute();
      assert.equal(executions.length, 1);
    });

    test('withdrawals: bootstrap 403, the same person twice 409, two persons at once on the last approval settle once', async () => {
      assert.equal((await h.op('PUT', '/policies/approvals/USD', { secondApprovalFromMinor: '50000' })).status, 200);
      const o = await seedOrg(h, { balances: { USD: 200_000n } });
      const dst = await usableDestination(h, o.key);
      const small = await h.call(o.key, 'POST', '/withdrawals', {
        destinationId: dst,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '49999',
      });
      const ok1 = await h.op('POST', `/withdrawals/${small.body.data.id}/approve`);
      assert.deepEqual([ok1.status, ok1.body.data.state, ok1.body.data.approvalsRequired], [200, 'completed', 1]);

      const big = await h.call(o.key, 'POST', '/withdrawals', {
        destinationId: dst,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '50000',
      });
      const id = big.body.data.id;
      assert.equal((await opWithdrawal(id)).approvalsRequired, 2);
      const r = await h.op('POST', `/withdrawals/${id}/approve`);
      assert.deepEqual([r.status, r.body.code], [403, 'withdrawals.approval_needs_person']);
      const first = await approveWithdrawal(h.deps, ANA, id, null);
      assert.equal(first.state, 'pending_approval');
      assert.equal(await codeOf(approveWithdrawal(h.deps, ANA, id, null)), 'withdrawals.already_approved_by_you');
      assert.equal(await held(h, o.key, 'USD'), 50_000n);
      const codes = await Promise.all([BEA, CAL, BEA, CAL].map((p) => codeOf(approveWithdrawal(h.deps, p, id, null))));
      assert.equal(codes.filter((c) => c === 'ok').length, 1, codes.join());
      const final = await opWithdrawal(id);
      assert.deepEqual(
        [final.state, final.approvalsRequired, final.approvals.length, final.approvals[0].staffId],
        ['completed', 2, 2, 'stf_ana'],
      );
      assert.equal(await held(h, o.key, 'USD'), 0n);
      assert.equal(await available(h, o.key, 'USD'), 200_000n - 49_999n - 50_000n);
      const settled = await h.store.db.selectFrom('journal_entries').select('kind').where('reference_id', '=', id).execute();
      assert.deepEqual(settled.map((e) => e.kind).sort(), ['clearing', 'withdrawal_hold', 'withdrawal_settlement']);
    });

    test('X-Operator is read with the bootstrap token as bootstrap:<name>; a malformed one is 400 and changes nothing', async () => {
      const r = await h.app.inject({
        method: 'PUT',
        url: '/operator/v1/market/assets/ETH',
        headers: {
          authorization: 'Bearer test-operator-token-0123456789',
          'x-operator': 'bad\u00e9name',
          'content-type': 'application/json',
        },
        payload: '{"decimals":18}',
      });
      assert.deepEqual([r.statusCode, r.json().code], [400, 'auth.operator_name_invalid']);
      assert.equal(await h.store.marketAssets.get('ETH'), null);
      const good = await h.app.inject({
        method: 'PUT',
        url: '/operator/v1/market/assets/ETH',
        headers: { authorization: 'Bearer test-operator-token-0123456789', 'x-operator': 'ana@desk', 'content-type': 'application/json' },
        payload: '{"decimals":18}',
      });
      assert.equal(good.statusCode, 200);
      const trail = (await h.op('GET', '/audit?subjectId=ETH')).body.data;
      assert.equal(trail[0].actor, 'bootstrap:ana@desk');
    });
  });
}
