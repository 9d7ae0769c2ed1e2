import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { available, backends, held, listAssets, makeHarness, seedOrg, type Harness, type SeededOrg, usableDestination } from './harness.ts';

type FigureWire = { assetSymbol: string; booksMinor: string; marketMinor: string; differenceMinor: string; matched: boolean };
const fig = (figures: FigureWire[], asset: string) => figures.find((f) => f.assetSymbol === asset)!;

for (const backend of backends()) {
  describe(`reconciliation [${backend}]`, () => {
    let h: Harness;
    let o: SeededOrg;
    let dst: string;
    before(async () => {
      h = await makeHarness({ backend, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
      await listAssets(h, { USD: 2, BTC: 8 });
      o = await seedOrg(h, { balances: { USD: 100000n, BTC: 50000000n } });
      await seedOrg(h, { balances: { USD: 2500n } });
      dst = await usableDestination(h, o.key);
    });
    after(async () => h?.close());
    // The stop is platform-wide: each test starts reconciled.
    const resolve = () => h.op('POST', '/reconciliation/resolve');

    test('a run against the simulated venue matches when the books agree, with the figures per asset', async () => {
      await resolve();
      const r = await h.op('POST', '/reconciliation/run');
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.matched, true);
      assert.equal(r.body.data.reconciled, true);
      assert.equal(r.body.data.source, 'venue');
      assert.deepEqual(fig(r.body.data.figures, 'USD'), {
        assetSymbol: 'USD',
        booksMinor: '102500',
        marketMinor: '102500',
        differenceMinor: '0',
        matched: true,
      });
      assert.deepEqual(fig(r.body.data.figures, 'BTC'), {
        assetSymbol: 'BTC',
        booksMinor: '50000000',
        marketMinor: '50000000',
        differenceMinor: '0',
        matched: true,
      });
      const s = await h.op('GET', '/reconciliation');
      assert.equal(s.body.data.reconciled, true);
      assert.equal(s.body.data.lastRun.id, r.body.data.id);
      assert.equal(s.body.data.stoppedByRunId, null);
    });

    test('a mismatch stops every money-moving client call with 409 ledger.ledger_not_reconciled; reads and quotes go on', async () => {
      await resolve();
      const pending = await h.call(o.key, 'POST', '/withdrawals', {
        destinationId: dst,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '1000',
      });
      assert.equal(pending.status, 201, pending.raw);

      const r = await h.op('POST', '/reconciliation/run', {
        marketBalances: [
          { assetSymbol: 'USD', amountMinor: '102499' },
          { assetSymbol: 'BTC', amountMinor: 50000000 },
        ],
      });
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.matched, false);
      assert.equal(r.body.data.reconciled, false);
      assert.equal(r.body.data.source, 'given');
      assert.deepEqual(fig(r.body.data.figures, 'USD'), {
        assetSymbol: 'USD',
        booksMinor: '102500',
        marketMinor: '102499',
        differenceMinor: '-1',
        matched: false,
      });
      assert.equal(fig(r.body.data.figures, 'BTC').matched, true);
      const s = await h.op('GET', '/reconciliation');
      assert.equal(s.body.data.reconciled, false);
      assert.equal(s.body.data.stoppedByRunId, r.body.data.id);
      const trail = (await h.op('GET', '/audit?action=reconciliation.mismatch')).body.data[0];
      assert.deepEqual([trail.before.reconciled, trail.after.reconciled, trail.after.runId], [true, false, r.body.data.id]);
      assert.deepEqual(
        trail.after.mismatches.map((m: FigureWire) => [m.assetSymbol, m.booksMinor, m.marketMinor]),
        [['USD', '102500', '102499']],
      );

      const balancesBefore = [await available(h, o.key, 'USD'), await held(h, o.key, 'USD')];
      const moving: Array<[string, string, unknown]> = [
        ['POST', '/withdrawals', { destinationId: dst, assetSymbol: 'USD', assetDecimals: 2, amountMinor: '1000' }],
        [
          'POST',
          '/withdrawals/destinations/bank',
          {
            label: 'New',
            assetSymbol: 'USD',
            bankName: 'Banco Río',
            accountKind: 'savings',
            accountNumber: '12341234',
            holderName: 'Acme SA',
            holderDocument: '30-1',
          },
        ],
        ['POST', '/orders', { quoteId: 'qt_any' }],
        ['POST', '/deposits/declarations', { assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: '10000' }],
      ];
      // Every route here must exist: a vanished route is a failure, not a case quietly skipped.
      for (const [method, url, b] of moving) {
        assert.ok(h.app.hasRoute({ method: method as 'POST', url: `/api/v1${url}` }), `${method} /api/v1${url} is not registered`);
        const x = await h.call(o.key, method, url, b);
        assert.equal(x.status, 409, `${url}: ${x.raw}`);
        assert.equal(x.body.code, 'ledger.ledger_not_reconciled', url);
      }
      assert.deepEqual([await available(h, o.key, 'USD'), await held(h, o.key, 'USD')], balancesBefore);

      for (const url of [
        '/client',
        '/balances',
        '/ledger',
        '/withdrawals',
        '/withdrawals/destinations',
        '/orders',
        '/deposits',
        '/deposits/open-declaration',
        '/deposits/wallets',
      ]) {
        assert.ok(h.app.hasRoute({ method: 'GET', url: `/api/v1${url}` }), `GET /api/v1${url} is not registered`);
        const x = await h.call(o.key, 'GET', url);
        assert.equal(x.status, 200, `${url}: ${x.raw}`);
      }
      // Quotes go on while stopped: the pair is priced, so the quote is given (201), not merely "not 409".
      const priced = await h.op('PUT', '/market/pairs/BTC/USD', {
        midRate: '65000',
        spreadBps: 50,
        feeBps: 10,
        fixedFeeQuoteMinor: '0',
        minBaseMinor: '1000',
        maxBaseMinor: '1000000000',
      });
      assert.equal(priced.status, 200, `pricing BTC/USD while stopped: ${priced.raw}`);
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
      assert.equal(q.status, 201, q.raw);
      assert.equal(q.body.data.amountBaseMinor, '1000000');

      // The operator does not let money leave while stopped; a rejection (money stays) is allowed.
      const ap = await h.op('POST', `/withdrawals/${pending.body.data.id}/approve`);
      assert.equal(ap.status, 409);
      assert.equal(ap.body.code, 'ledger.ledger_not_reconciled');
      const rj = await h.op('POST', `/withdrawals/${pending.body.data.id}/reject`);
      assert.equal(rj.status, 200, rj.raw);
      assert.equal(await held(h, o.key, 'USD'), 0n);
    });

    test('a matching run does not lift the stop; resolve does, audited, and operations resume', async () => {
      await resolve();
      await h.op('POST', '/reconciliation/run', { marketBalances: [{ assetSymbol: 'USD', amountMinor: '1' }] });
      const stoppedBy = (await h.op('GET', '/reconciliation')).body.data.stoppedByRunId;
      const again = await h.op('POST', '/reconciliation/run');
      assert.equal(again.body.data.matched, true);
      assert.equal(again.body.data.reconciled, false);
      const blocked = await h.call(o.key, 'POST', '/withdrawals', {
        destinationId: dst,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '10',
      });
      assert.equal(blocked.body.code, 'ledger.ledger_not_reconciled');

      const r = await h.op('POST', '/reconciliation/resolve', { note: 'test figure, the venue was right' });
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.reconciled, true);
      const trail = (await h.op('GET', '/audit?action=reconciliation.resolve')).body.data;
      assert.equal(trail[0].actor, 'bootstrap');
      assert.deepEqual(
        [trail[0].before.reconciled, trail[0].before.stoppedByRunId, trail[0].after.reconciled, trail[0].after.note],
        [false, stoppedBy, true, 'test figure, the venue was right'],
      );
      // Resolving when reconciled changes nothing and records nothing.
      assert.equal((await resolve()).status, 200);
      assert.equal((await h.op('GET', '/audit?action=reconciliation.resolve')).body.pagination.total, trail.length);

      const w = await h.call(o.key, 'POST', '/withdrawals', {
        destinationId: dst,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '10',
      });
      assert.equal(w.status, 201, w.raw);
      assert.equal((await h.op('POST', `/withdrawals/${w.body.data.id}/approve`)).status, 200);
      assert.equal((await h.op('POST', '/reconciliation/run')).body.data.matched, true);
    });

    test('money missing at the venue is caught without a list: the difference is exact', async () => {
      await resolve();
      await sql`update venue_balances set amount = amount - 7 where asset_symbol = 'BTC'`.execute(h.store.db);
      try {
        const r = await h.op('POST', '/reconciliation/run', {});
        assert.equal(r.body.data.matched, false);
        assert.deepEqual(fig(r.body.data.figures, 'BTC'), {
          assetSymbol: 'BTC',
          booksMinor: '50000000',
          marketMinor: '49999993',
          differenceMinor: '-7',
          matched: false,
        });
        assert.equal(fig(r.body.data.figures, 'USD').matched, true);
        assert.equal(
          (await h.call(o.key, 'POST', '/withdrawals', { destinationId: dst, assetSymbol: 'USD', assetDecimals: 2, amountMinor: '10' }))
            .status,
          409,
        );
      } finally {
        await sql`update venue_balances set amount = amount + 7 where asset_symbol = 'BTC'`.execute(h.store.db);
        await resolve();
      }
    });

    test('the given balances are validated', async () => {
      await resolve();
      const dup = await h.op('POST', '/reconciliation/run', {
        marketBalances: [
          { assetSymbol: 'USD', amountMinor: '1' },
          { assetSymbol: 'USD', amountMinor: '1' },
        ],
      });
      assert.equal(dup.status, 422);
      assert.equal(dup.body.code, 'request.validation_failed');
      const neg = await h.op('POST', '/reconciliation/run', { marketBalances: [{ assetSymbol: 'USD', amountMinor: '-1' }] });
      assert.equal(neg.status, 422);
      assert.equal(neg.body.code, 'request.invalid_amount');
      assert.equal((await h.op('GET', '/reconciliation')).body.data.reconciled, true);
    });
  });
}
