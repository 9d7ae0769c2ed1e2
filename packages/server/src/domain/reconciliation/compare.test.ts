import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compareHoldings, marketBalancesOf } from './compare.ts';

describe('reconciliation comparison', () => {
  test('equal holdings match; the union of assets is compared, a missing side counts as zero', () => {
    const r = compareHoldings(
      new Map([
        ['USD', 100n],
        ['BTC', 0n],
      ]),
      new Map([['USD', 100n]]),
    );
    assert.equal(r.matched, true);
    assert.deepEqual(
      r.figures.map((f) => f.assetSymbol),
      ['BTC', 'USD'],
    );
  });
  test('one minor unit of difference is a mismatch, reported as market − books', () => {
    const r = compareHoldings(
      new Map([['USD', 100n]]),
      new Map([
        ['USD', 99n],
        ['ARS', 5n],
      ]),
    );
    assert.equal(r.matched, false);
    assert.deepEqual(r.figures, [
      { assetSymbol: 'ARS', books: 0n, market: 5n, difference: 5n, matched: false },
      { assetSymbol: 'USD', books: 100n, market: 99n, difference: -1n, matched: false },
    ]);
  });
  test('exact beyond 2^53', () => {
    const big = 2n ** 256n - 1n;
    assert.equal(compareHoldings(new Map([['X', big]]), new Map([['X', big - 1n]])).figures[0]!.difference, -1n);
  });
  test('an asset listed twice in the given balances is refused', () => {
    assert.deepEqual(
      marketBalancesOf([
        { assetSymbol: 'USD', amount: 1n },
        { assetSymbol: 'USD', amount: 2n },
      ]),
      { duplicate: 'USD' },
    );
  });
});
