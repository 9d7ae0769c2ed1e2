import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DomainError } from '../errors.ts';
import { cryptoRandomBelow, pickTail, tailPlan, tailWidth } from './tail.ts';

const code = (f: () => unknown) => {
  try {
    f();
    return null;
  } catch (e) {
    return (e as DomainError).code;
  }
};

test('tail width is min(decimals, 4); the declared amount must be at least 10^(width+1)', () => {
  assert.deepEqual(tailPlan(2, 1000n), { width: 2, min: 1n, max: 99n });
  assert.deepEqual(tailPlan(8, 100000n), { width: 4, min: 1n, max: 9999n });
  assert.deepEqual(tailPlan(1, 100n), { width: 1, min: 1n, max: 9n });
  assert.equal(
    code(() => tailPlan(2, 999n)),
    'deposits.amount_too_small',
  );
  assert.equal(
    code(() => tailPlan(8, 99999n)),
    'deposits.amount_too_small',
  );
  assert.equal(
    code(() => tailPlan(2, 0n)),
    'deposits.amount_too_small',
  );
});

test('an asset with no decimals takes its tail in the last two units: 1..99, from a declared 1000', () => {
  assert.deepEqual(tailPlan(0, 1000n), { width: 2, min: 1n, max: 99n });
  assert.deepEqual(tailPlan(0, 10n ** 30n), { width: 2, min: 1n, max: 99n });
  assert.equal(
    code(() => tailPlan(0, 999n)),
    'deposits.amount_too_small',
  );
  assert.equal(
    code(() => tailPlan(0, 1n)),
    'deposits.amount_too_small',
  );
  // The tail stays under a tenth of the smallest declarable amount, as for every other asset.
  for (const d of [0, 1, 2, 4, 8, 18]) {
    const w = tailWidth(d);
    const smallest = 10n ** BigInt(w + 1);
    assert.equal(
      code(() => tailPlan(d, smallest - 1n)),
      'deposits.amount_too_small',
    );
    assert.ok(tailPlan(d, smallest).max * 10n < smallest);
  }
});

test('an expected amount that would not fit 78 digits is refused, not truncated', () => {
  assert.equal(
    code(() => tailPlan(2, 10n ** 78n - 50n)),
    'request.invalid_amount',
  );
  assert.deepEqual(tailPlan(2, 10n ** 78n - 100n), { width: 2, min: 1n, max: 99n });
});

test('pickTail returns the k-th free tail, skipping the taken ones', () => {
  const plan = tailPlan(1, 100n); // tails 1..9
  const taken = new Set([1n, 2n, 5n]);
  // free tails in order: 3 4 6 7 8 9
  assert.deepEqual(
    [0n, 1n, 2n, 3n, 4n, 5n].map((k) => pickTail(plan, taken, () => k)),
    [3n, 4n, 6n, 7n, 8n, 9n],
  );
  // the random source is asked for a number below the count of free tails
  let asked = 0n;
  pickTail(plan, taken, (n) => {
    asked = n;
    return 0n;
  });
  assert.equal(asked, 6n);
});

test('pickTail gives null when every tail of the band is taken, and ignores tails outside it', () => {
  const plan = tailPlan(1, 100n);
  assert.equal(pickTail(plan, new Set([1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n])), null);
  assert.equal(pickTail(plan, new Set([0n, 10n, 1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n])), 9n);
});

test('random tails are spread over the whole band and never repeat a taken one', () => {
  const plan = tailPlan(2, 10000n);
  const taken = new Set<bigint>();
  for (let i = 0; i < 99; i++) {
    const t = pickTail(plan, taken);
    assert.ok(t !== null && t >= 1n && t <= 99n && !taken.has(t));
    taken.add(t);
  }
  assert.equal(taken.size, 99);
  assert.equal(pickTail(plan, taken), null);
});

test('cryptoRandomBelow stays in [0, n) for small and huge n', () => {
  for (const n of [1n, 2n, 7n, 256n, 257n, 10n ** 40n]) {
    for (let i = 0; i < 50; i++) {
      const v = cryptoRandomBelow(n);
      assert.ok(v >= 0n && v < n, `${v} not below ${n}`);
    }
  }
});
