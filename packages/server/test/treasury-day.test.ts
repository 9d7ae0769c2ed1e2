import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig, sandboxCooldownLine } from '../src/config.ts';
import type { ManualClock } from '../src/domain/ports.ts';
import {
  available,
  backends,
  btcUsdMarket,
  held,
  makeHarness,
  SECRET,
  seedOrg,
  signedInMember,
  withCookie,
  type Harness,
} from './harness.ts';

/**
 * What a treasury user meets through the API on a day with the sandbox as it starts: the withdrawal
 * walkthrough of docs/api-guide.md with the sandbox's own one-minute cooldown (no variable set), the
 * portal's reasons a destination waits, and the platform's stop said in plain words.
 */
test('the sandbox cools a new destination down for a minute, production for 24 h; the variable still overrides; the start says so', () => {
  assert.equal(loadConfig({}).destinationCooldownMs, 60_000);
  assert.equal(loadConfig({ CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET }).destinationCooldownMs, 86_400_000);
  assert.equal(loadConfig({ CAMBIO_DESTINATION_COOLDOWN_MS: '0' }).destinationCooldownMs, 0);
  assert.equal(
    loadConfig({ CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET, CAMBIO_DESTINATION_COOLDOWN_MS: '5000' }).destinationCooldownMs,
    5000,
  );
  assert.equal(
    sandboxCooldownLine(60_000),
    'sandbox: a new withdrawal destination cools down 1 min, then is usable once the operator registers it in the market (CAMBIO_DESTINATION_COOLDOWN_MS=60000; production default 24 h)',
  );
  assert.match(sandboxCooldownLine(0), /has no cooldown/);
  assert.match(sandboxCooldownLine(30_000), /cools down 30 s/);
});

for (const backend of backends()) {
  describe(`a treasury day through the API [${backend}]`, () => {
    let h: Harness;
    let clock: ManualClock;
    before(async () => {
      // The sandbox as `npm start` gives it: no cooldown variable.
      h = await makeHarness({ backend, manualClock: true });
      clock = h.clock as ManualClock;
      await btcUsdMarket(h);
    });
    after(async () => h?.close());

    test("the guide's withdrawal walkthrough works as written with the sandbox's cooldown; the portal says why a destination waits", async () => {
      const o = await seedOrg(h, { balances: { USD: 100064675n } });
      const person = await signedInMember(h, o.orgId);
      const waiting = async () => (await withCookie(h, person.cookie, 'GET', '/portal/v1/destinations/waiting')).body.data;

      // 1. register a bank account
      const r = await h.call(o.key, 'POST', '/withdrawals/destinations/bank', {
        label: 'Operating account',
        assetSymbol: 'USD',
        bankName: 'First Demo Bank',
        accountKind: 'checking',
        accountNumber: '001234567890',
        holderName: 'Demo Treasury LLC',
        holderDocument: '12-3456789',
      });
      assert.equal(r.status, 201, r.raw);
      const dest = r.body.data.id;
      assert.deepEqual(
        Object.keys(r.body.data).sort(),
        ['assetSymbol', 'createdAt', 'id', 'label', 'summary', 'usable'],
        "the client API's fields, no more",
      );
      const endsAt = new Date(clock.now().getTime() + 60_000).toISOString();
      assert.deepEqual(await waiting(), [{ id: dest, cooldownEndsAt: endsAt, awaitingOperator: true }]);

      // 2. not usable yet: refused
      const early = await h.call(
        o.key,
        'POST',
        '/withdrawals',
        { destinationId: dest, assetSymbol: 'USD', assetDecimals: 2, amountMinor: '50000' },
        { 'x-lang': 'en' },
      );
      assert.equal(early.status, 422, early.raw);
      assert.equal(early.body.code, 'withdrawals.destination_not_usable');

      // 3. the operator registers it; within the minute still cooling down, then usable
      const reg = await h.op('POST', `/destinations/${dest}/register-in-market`);
      assert.equal(reg.status, 200, reg.raw);
      assert.deepEqual(await waiting(), [{ id: dest, cooldownEndsAt: endsAt, awaitingOperator: false }]);
      clock.advance(59_999);
      assert.equal((await h.call(o.key, 'GET', '/withdrawals/destinations')).body.data[0].usable, false);
      clock.advance(1);
      assert.equal((await h.call(o.key, 'GET', '/withdrawals/destinations')).body.data[0].usable, true);
      assert.deepEqual(await waiting(), [], 'nothing waits');

      // 4. request 500.00 USD: held at once
      const w = await h.call(o.key, 'POST', '/withdrawals', {
        destinationId: dest,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '50000',
      });
      assert.equal(w.status, 201, w.raw);
      assert.equal(w.body.data.state, 'pending_approval');
      assert.equal(await available(h, o.key, 'USD'), 100014675n);
      assert.equal(await held(h, o.key, 'USD'), 50000n);

      // 5. approved: the amount leaves
      const ok = await h.op('POST', `/withdrawals/${w.body.data.id}/approve`, { reason: 'paid by wire, ref 7781' });
      assert.equal(ok.status, 200, ok.raw);
      assert.equal(ok.body.data.state, 'completed');
      assert.equal(await held(h, o.key, 'USD'), 0n);
      assert.equal(await available(h, o.key, 'USD'), 100014675n);
    });

    test("the portal's reasons are the organization's own and need a session with portal:read", async () => {
      const a = await seedOrg(h);
      const b = await seedOrg(h);
      await h.call(a.key, 'POST', '/withdrawals/destinations/bank', {
        label: 'A',
        assetSymbol: 'USD',
        bankName: 'Banco Uno',
        accountKind: 'savings',
        accountNumber: '99990000',
        holderName: 'Org A',
        holderDocument: '30-2',
      });
      const other = await signedInMember(h, b.orgId);
      assert.deepEqual(
        (await withCookie(h, other.cookie, 'GET', '/portal/v1/destinations/waiting')).body.data,
        [],
        "another organization's never show",
      );
      const none = await withCookie(h, 'cambio_member=nope', 'GET', '/portal/v1/destinations/waiting');
      assert.equal(none.status, 401);
      const teamOnly = await signedInMember(h, a.orgId, ['portal:team']);
      const refused = await withCookie(h, teamOnly.cookie, 'GET', '/portal/v1/destinations/waiting');
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'auth.scope_missing');
    });

    test("during the stop a client reads a plain notice, never the platform's books; quotes and reads go on", async () => {
      const o = await seedOrg(h, { balances: { BTC: 100000000n } });
      const stop = await h.op('POST', '/reconciliation/run', { marketBalances: [{ assetSymbol: 'BTC', amountMinor: '1' }] });
      assert.equal(stop.status, 200, stop.raw);
      try {
        const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
        assert.equal(q.status, 201, q.raw);
        assert.equal((await h.call(o.key, 'GET', '/balances')).status, 200);
        for (const [lang, words] of [
          ['en', 'Trading and withdrawals are paused; your balances are safe. Nothing was done; try again later.'],
          ['es', 'El cambio y los retiros están en pausa; sus saldos están seguros. No se hizo nada; intente más tarde.'],
        ] as const) {
          const r = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id }, { 'x-lang': lang });
          assert.equal(r.status, 409, r.raw);
          assert.equal(r.body.code, 'ledger.ledger_not_reconciled');
          assert.equal(r.body.message, words);
          assert.doesNotMatch(r.raw, /books|market balance|libros|saldo del mercado/);
        }
      } finally {
        const res = await h.op('POST', '/reconciliation/resolve', { note: 'reviewed' });
        assert.equal(res.status, 200, res.raw);
      }
    });
  });
}
