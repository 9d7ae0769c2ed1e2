import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { available, backends, held, listAssets, makeHarness, seedOrg, type Harness, type SeededOrg } from './harness.ts';

let n = 0;
/** A destination of the organization, usable at once (cooldown 0 in this file) once the operator registers it. */
async function destination(h: Harness, o: SeededOrg, opts: { asset?: string; inMarket?: boolean } = {}): Promise<string> {
  n += 1;
  const r = await h.call(o.key, 'POST', '/withdrawals/destinations/bank', {
    label: `Account ${n}`,
    assetSymbol: opts.asset ?? 'USD',
    bankName: 'Banco Galicia',
    accountKind: 'savings',
    accountNumber: `4000${String(n).padStart(8, '0')}`,
    holderName: 'Acme SA',
    holderDocument: '30-71234567-1',
  });
  assert.equal(r.status, 201, r.raw);
  if (opts.inMarket !== false) assert.equal((await h.op('POST', `/destinations/${r.body.data.id}/register-in-market`)).status, 200);
  return r.body.data.id;
}

const withdraw = (h: Harness, o: SeededOrg, destinationId: string, amountMinor: unknown, over: Record<string, unknown> = {}) =>
  h.call(o.key, 'POST', '/withdrawals', { destinationId, assetSymbol: 'USD', assetDecimals: 2, amountMinor, ...over });

for (const backend of backends()) {
  describe(`withdrawals [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
      await listAssets(h, { USD: 2, BTC: 8 });
    });
    after(async () => h?.close());

    test('a request holds the amount; approval completes it and the amount leaves the books and the venue alike', async () => {
      const o = await seedOrg(h, { balances: { USD: 100000n } });
      const dst = await destination(h, o);
      const r = await withdraw(h, o, dst, '25000');
      assert.equal(r.status, 201, r.raw);
      const w = r.body.data;
      assert.equal(w.state, 'pending_approval');
      assert.deepEqual(w.money, { assetSymbol: 'USD', assetDecimals: 2, amountMinor: '25000' });
      assert.equal(w.destinationId, dst);
      assert.equal(w.destinationSummary, `Banco Galicia · savings ···· ${String(n).padStart(8, '0').slice(-4)}`);
      assert.equal(w.reason, null);
      assert.equal(await available(h, o.key, 'USD'), 75000n);
      assert.equal(await held(h, o.key, 'USD'), 25000n);

      const list = await h.call(o.key, 'GET', '/withdrawals');
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.data, [w]);

      const before = await h.op('POST', '/reconciliation/run');
      const booksBefore = BigInt(before.body.data.figures.find((f: { assetSymbol: string }) => f.assetSymbol === 'USD').booksMinor);
      const ap = await h.op('POST', `/withdrawals/${w.id}/approve`, { reason: 'checked with the client' });
      assert.equal(ap.status, 200, ap.raw);
      assert.equal(ap.body.data.state, 'completed');
      assert.equal(ap.body.data.organizationId, o.orgId);
      assert.equal(ap.body.data.reason, 'checked with the client');
      assert.equal(await available(h, o.key, 'USD'), 75000n);
      assert.equal(await held(h, o.key, 'USD'), 0n);
      const mine = (await h.call(o.key, 'GET', '/withdrawals')).body.data[0];
      assert.equal(mine.state, 'completed');
      const ledger = (await h.call(o.key, 'GET', '/ledger')).body.data;
      assert.deepEqual(
        ledger
          .slice(0, 3)
          .map((p: { kind: string; account: string; amountMinor: string; referenceId: string }) => [
            p.kind,
            p.account,
            p.amountMinor,
            p.referenceId,
          ]),
        [
          ['withdrawal_settlement', 'held', '-25000', w.id],
          ['withdrawal_hold', 'held', '25000', w.id],
          ['withdrawal_hold', 'available', '-25000', w.id],
        ],
      );
      // The platform holds 25000 less at the market, in its books and at the (simulated) venue.
      const run = await h.op('POST', '/reconciliation/run');
      assert.equal(run.body.data.matched, true, run.raw);
      const usd = run.body.data.figures.find((f: { assetSymbol: string }) => f.assetSymbol === 'USD');
      assert.equal(BigInt(usd.booksMinor), booksBefore - 25000n);
      assert.equal(usd.marketMinor, usd.booksMinor);
    });

    test('rejection releases the hold', async () => {
      const o = await seedOrg(h, { balances: { USD: 100000n } });
      const w = (await withdraw(h, o, await destination(h, o), 40000)).body.data;
      assert.equal(await available(h, o.key, 'USD'), 60000n);
      const rj = await h.op('POST', `/withdrawals/${w.id}/reject`, { reason: 'holder name does not match' });
      assert.equal(rj.status, 200, rj.raw);
      assert.equal(rj.body.data.state, 'rejected');
      assert.equal(await available(h, o.key, 'USD'), 100000n);
      assert.equal(await held(h, o.key, 'USD'), 0n);
      const mine = (await h.call(o.key, 'GET', '/withdrawals')).body.data[0];
      assert.equal(mine.state, 'rejected');
      assert.equal(mine.reason, 'holder name does not match');
    });

    test('each withdrawal is decided once: a second decision is 409, an unknown one 404', async () => {
      const o = await seedOrg(h, { balances: { USD: 100000n } });
      const dst = await destination(h, o);
      const a = (await withdraw(h, o, dst, 1000)).body.data.id;
      const b = (await withdraw(h, o, dst, 2000)).body.data.id;
      assert.equal((await h.op('POST', `/withdrawals/${a}/approve`)).status, 200);
      assert.equal((await h.op('POST', `/withdrawals/${b}/reject`)).status, 200);
      for (const [id, verb, state] of [
        [a, 'approve', 'completed'],
        [a, 'reject', 'completed'],
        [b, 'approve', 'rejected'],
        [b, 'reject', 'rejected'],
      ] as const) {
        const r = await h.op('POST', `/withdrawals/${id}/${verb}`);
        assert.equal(r.status, 409, `${verb} ${state}`);
        assert.equal(r.body.code, 'withdrawals.already_decided');
        assert.match(r.body.message!, new RegExp(state));
      }
      assert.equal(await available(h, o.key, 'USD'), 99000n);
      assert.equal(await held(h, o.key, 'USD'), 0n);
      const nf = await h.op('POST', '/withdrawals/wdr_nope/approve');
      assert.equal(nf.status, 404);
      assert.equal(nf.body.code, 'withdrawals.not_found');
    });

    test('concurrent decisions on one withdrawal: exactly one wins', async () => {
      const o = await seedOrg(h, { balances: { USD: 10000n } });
      const id = (await withdraw(h, o, await destination(h, o), 7000)).body.data.id;
      const rs = await Promise.all(Array.from({ length: 8 }, (_, i) => h.op('POST', `/withdrawals/${id}/${i % 2 ? 'reject' : 'approve'}`)));
      const wins = rs.filter((r) => r.status === 200);
      assert.equal(wins.length, 1);
      assert.ok(rs.filter((r) => r.status !== 200).every((r) => r.status === 409 && r.body.code === 'withdrawals.already_decided'));
      assert.equal(await held(h, o.key, 'USD'), 0n);
      assert.equal(await available(h, o.key, 'USD'), wins[0]!.body.data.state === 'completed' ? 3000n : 10000n);
      const audit = await h.op('GET', `/audit?subjectId=${id}`);
      assert.equal(audit.body.data.length, 1);
    });

    test('parallel withdrawals never overdraw', async () => {
      const o = await seedOrg(h, { balances: { USD: 100n } });
      const dst = await destination(h, o);
      const rs = await Promise.all(Array.from({ length: 10 }, () => withdraw(h, o, dst, 30)));
      assert.deepEqual(rs.map((r) => r.status).sort(), [201, 201, 201, 422, 422, 422, 422, 422, 422, 422]);
      assert.ok(rs.filter((r) => r.status === 422).every((r) => r.body.code === 'ledger.insufficient_balance'));
      assert.equal(await available(h, o.key, 'USD'), 10n);
      assert.equal(await held(h, o.key, 'USD'), 90n);
      assert.equal((await h.call(o.key, 'GET', '/withdrawals')).body.pagination.total, 3);
    });

    test('refusals: unusable, foreign or unknown destination, asset, decimals, amount, limit, balance, scope', async () => {
      const o = await seedOrg(h, { balances: { USD: 5000n, BTC: 100000000n }, limits: { USD: { maxWithdrawalMinor: '3000' } } });
      const other = await seedOrg(h, { balances: { USD: 5000n } });
      const usable = await destination(h, o);
      const notInMarket = await destination(h, o, { inMarket: false });
      const btc = await destination(h, o, { asset: 'BTC' });
      const foreign = await destination(h, other);
      const cases: Array<[string, string, unknown, Record<string, unknown>, number, string]> = [
        ['not registered in the market', notInMarket, 100, {}, 422, 'withdrawals.destination_not_usable'],
        ["another organization's destination", foreign, 100, {}, 422, 'withdrawals.destination_not_found'],
        ['unknown destination', 'dst_nope', 100, {}, 422, 'withdrawals.destination_not_found'],
        ['asset differs from the destination', btc, 100, {}, 422, 'withdrawals.asset_mismatch'],
        ['decimals differ from the market', usable, 100, { assetDecimals: 8 }, 422, 'market.decimals_mismatch'],
        ['zero', usable, 0, {}, 422, 'request.invalid_amount'],
        ['negative', usable, '-5', {}, 422, 'request.invalid_amount'],
        ['fraction', usable, 1.5, {}, 422, 'request.invalid_amount'],
        ['over the limit', usable, 3001, {}, 422, 'withdrawals.limit_exceeded'],
        ['missing assetDecimals', usable, 100, { assetDecimals: undefined }, 422, 'request.validation_failed'],
      ];
      for (const [name, dst, amount, over, status, code] of cases) {
        const r = await withdraw(h, o, dst, amount, over);
        assert.equal(r.status, status, `${name}: ${r.raw}`);
        assert.equal(r.body.code, code, name);
      }
      assert.equal((await withdraw(h, o, usable, 3000)).status, 201);
      const broke = await withdraw(h, o, usable, 2001);
      assert.equal(broke.status, 422);
      assert.equal(broke.body.code, 'ledger.insufficient_balance');
      assert.equal(await available(h, o.key, 'USD'), 2000n);
      assert.equal(await held(h, o.key, 'USD'), 3000n);
      assert.equal(await available(h, other.key, 'USD'), 5000n);
      assert.equal((await h.call(o.key, 'GET', '/withdrawals')).body.pagination.total, 1);

      const d = await seedOrg(h, { scopes: ['portal:read', 'portal:destinations'], balances: { USD: 100n } });
      const r = await withdraw(h, d, await destination(h, d), 10);
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'auth.scope_missing');
      assert.match(r.body.message!, /portal:withdraw/);
    });

    test('the operator lists withdrawals by state across organizations, and the trail shows each decision', async () => {
      const o = await seedOrg(h, { balances: { USD: 10000n } });
      const dst = await destination(h, o);
      const a = (await withdraw(h, o, dst, 100)).body.data.id;
      const b = (await withdraw(h, o, dst, 200)).body.data.id;
      const c = (await withdraw(h, o, dst, 300)).body.data.id;
      await h.op('POST', `/withdrawals/${a}/approve`);
      await h.op('POST', `/withdrawals/${b}/reject`, { reason: 'duplicate' });
      const pending = await h.op('GET', '/withdrawals?state=pending_approval&limit=100');
      assert.equal(pending.status, 200);
      assert.ok(pending.body.data.every((w: { state: string }) => w.state === 'pending_approval'));
      const ids = pending.body.data.map((w: { id: string }) => w.id);
      assert.ok(ids.includes(c) && !ids.includes(a) && !ids.includes(b));
      assert.equal(pending.body.data.find((w: { id: string }) => w.id === c).organizationId, o.orgId);
      const completed = await h.op('GET', '/withdrawals?state=completed&limit=100');
      assert.ok(completed.body.data.some((w: { id: string }) => w.id === a));
      assert.equal((await h.op('GET', '/withdrawals?state=lost')).status, 400);

      const ta = (await h.op('GET', `/audit?subjectId=${a}`)).body.data;
      assert.equal(ta.length, 1);
      assert.equal(ta[0].action, 'withdrawal.approve');
      assert.equal(ta[0].actor, 'bootstrap');
      assert.equal(ta[0].before.state, 'pending_approval');
      assert.equal(ta[0].after.state, 'completed');
      assert.equal(ta[0].after.amountMinor, '100');
      const tb = (await h.op('GET', `/audit?subjectId=${b}`)).body.data;
      assert.deepEqual(
        [tb[0].action, tb[0].before.state, tb[0].after.state, tb[0].after.reason],
        ['withdrawal.reject', 'pending_approval', 'rejected', 'duplicate'],
      );
    });
  });
}
