import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DomainError } from '../errors.ts';
import { assertBalanced, netChanges, reversalOf, type Entry } from './entry.ts';

const e = (postings: Entry['postings']): Entry => ({ kind: 'adjustment', organizationId: 'o', referenceId: null, memo: null, postings });

test('an entry must sum to zero per asset', () => {
  assert.doesNotThrow(() =>
    assertBalanced(
      e([
        { ownerId: 'o', assetSymbol: 'USD', kind: 'available', amount: 5n },
        { ownerId: 'platform', assetSymbol: 'USD', kind: 'market', amount: -5n },
      ]),
    ),
  );
  // sums to zero overall but not per asset
  assert.throws(
    () =>
      assertBalanced(
        e([
          { ownerId: 'o', assetSymbol: 'USD', kind: 'available', amount: 5n },
          { ownerId: 'platform', assetSymbol: 'BTC', kind: 'market', amount: -5n },
        ]),
      ),
    (x: unknown) => x instanceof DomainError && x.code === 'ledger.unbalanced_entry',
  );
  assert.throws(() => assertBalanced(e([{ ownerId: 'o', assetSymbol: 'USD', kind: 'available', amount: 0n }])));
});

test('net changes merge postings per account and sort them for a fixed lock order', () => {
  const n = netChanges(
    e([
      { ownerId: 'z', assetSymbol: 'USD', kind: 'available', amount: -3n },
      { ownerId: 'a', assetSymbol: 'USD', kind: 'held', amount: 1n },
      { ownerId: 'z', assetSymbol: 'USD', kind: 'available', amount: 1n },
      { ownerId: 'a', assetSymbol: 'USD', kind: 'held', amount: 1n },
    ]),
  );
  assert.deepEqual(
    n.map((p) => [p.ownerId, p.kind, p.amount]),
    [
      ['a', 'held', 2n],
      ['z', 'available', -2n],
    ],
  );
});

test('a reversal negates every posting', () => {
  const r = reversalOf(
    e([
      { ownerId: 'o', assetSymbol: 'USD', kind: 'available', amount: 5n },
      { ownerId: 'platform', assetSymbol: 'USD', kind: 'market', amount: -5n },
    ]),
    'undo',
  );
  assert.deepEqual(
    r.postings.map((p) => p.amount),
    [-5n, 5n],
  );
  assert.equal(r.kind, 'reversal');
});
