import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends, listAssets, makeHarness, seedOrg, type Harness, type SeededOrg } from './harness.ts';

type FigureWire = { assetSymbol: string; booksMinor: string; marketMinor: string; differenceMinor: string; matched: boolean };

/**
 * What the desk's day relies on at the API: a reconciliation with some assets left out compares only
 * those given (an empty field is never a balance of zero); the books' figures are there to show a run's
 * differences before it is sent; an arrival recorded with the client's deposit reference is credited
 * only to the declaration with that reference and exactly that amount.
 */
for (const backend of backends()) {
  describe(`the desk's day at the API [${backend}]`, () => {
    let h: Harness;
    let o: SeededOrg;
    before(async () => {
      h = await makeHarness({ backend });
      await listAssets(h, { USD: 2, BTC: 8 });
      assert.equal((await h.op('PUT', '/wallets/USD', { network: 'wire', address: 'usd-acct-1' })).status, 200);
      o = await seedOrg(h, { balances: { USD: 104213122n, BTC: 50000000n } });
    });
    after(async () => h?.close());

    test("the books' figures per asset, now; a run given only BTC compares BTC alone and stops nothing", async () => {
      const b = await h.op('GET', '/reconciliation/books');
      assert.equal(b.status, 200, b.raw);
      assert.deepEqual(b.body.data.books, [
        { assetSymbol: 'BTC', booksMinor: '50000000' },
        { assetSymbol: 'USD', booksMinor: '104213122' },
      ]);
      const r = await h.op('POST', '/reconciliation/run', { marketBalances: [{ assetSymbol: 'BTC', amountMinor: '50000000' }] });
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(
        r.body.data.figures.map((f: FigureWire) => [f.assetSymbol, f.marketMinor, f.matched]),
        [['BTC', '50000000', true]],
        'USD, left out, is not compared (never taken as 0)',
      );
      assert.deepEqual([r.body.data.matched, r.body.data.reconciled], [true, true]);
      // A figure given as zero is compared: that is a real difference, and it stops.
      const zero = await h.op('POST', '/reconciliation/run', { marketBalances: [{ assetSymbol: 'USD', amountMinor: '0' }] });
      assert.deepEqual(
        zero.body.data.figures.map((f: FigureWire) => [f.assetSymbol, f.differenceMinor]),
        [['USD', '-104213122']],
      );
      assert.equal(zero.body.data.reconciled, false);
      assert.equal((await h.op('POST', '/reconciliation/resolve', { note: 'typed 0 by mistake' })).status, 200);
      // Without marketBalances the venue's own figures cover every asset, as before.
      const venue = await h.op('POST', '/reconciliation/run');
      assert.deepEqual(
        venue.body.data.figures.map((f: FigureWire) => f.assetSymbol),
        ['BTC', 'USD'],
      );
    });

    test("an arrival with the client's reference: credited to that declaration when the amount is exact, else it waits", async () => {
      // One open declaration per organization and asset: a second organization declares the other.
      const other = await seedOrg(h, {});
      const declare = async (key: string) => {
        const r = await h.call(key, 'POST', '/deposits/declarations', {
          assetSymbol: 'USD',
          assetDecimals: 2,
          declaredAmountMinor: '100000',
        });
        assert.equal(r.status, 201, r.raw);
        return r.body.data as { id: string; reference: string; expectedAmountMinor: string };
      };
      const a = await declare(o.key);
      const b = await declare(other.key);
      const arrive = (amountMinor: string, reference: string | undefined, txid: string) =>
        h.op('POST', '/deposits', {
          assetSymbol: 'USD',
          network: 'wire',
          amountMinor,
          txid,
          ...(reference === undefined ? {} : { reference }),
        });

      // b's amount quoting a's reference: the two disagree, so it waits for a person.
      const crossed = await arrive(b.expectedAmountMinor, a.reference, 'wire-crossed');
      assert.equal(crossed.status, 201, crossed.raw);
      assert.deepEqual([crossed.body.data.state, crossed.body.data.organizationId], ['unattributed', null]);
      // a's amount and a's reference, typed as a person reads it (lower case, no dash): credited.
      const typed = a.reference.toLowerCase().replace('-', ' ');
      const ok = await arrive(a.expectedAmountMinor, typed, 'wire-a');
      assert.deepEqual([ok.status, ok.body.data.state, ok.body.data.organizationId], [201, 'credited', o.orgId]);
      const audit = await h.op('GET', `/audit?subjectId=${ok.body.data.id}&action=deposit.arrival`);
      assert.equal(audit.body.data[0].after.reference, a.reference);
      // Without a reference the amount alone still matches (the API as before).
      const plain = await arrive(b.expectedAmountMinor, undefined, 'wire-b');
      assert.deepEqual([plain.body.data.state, plain.body.data.organizationId], ['credited', other.orgId]);
      // Something that cannot be a reference is refused, and nothing is recorded.
      const bad = await arrive('555', 'not a ref!', 'wire-bad');
      assert.deepEqual([bad.status, bad.body.code], [422, 'deposits.invalid_reference']);
      const again = await arrive('555', undefined, 'wire-bad');
      assert.equal(again.status, 201, 'the txid was not taken by the refused call');
    });
  });
}
