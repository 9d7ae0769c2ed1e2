// One mid rate prices both directions of a pair: the inverse is exact to the 36 decimals the API takes,
// rounded down, and the offered rates follow the pricing rule in bigint.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inverseRate, offeredRate, rateFraction } from '../src/features/market/rates.ts';

test('a mid rate is an exact fraction; zero, signs and exponents are no rate', () => {
  assert.deepEqual(rateFraction('65000.25'), { num: 6500025n, den: 100n });
  assert.equal(rateFraction('0'), null);
  assert.equal(rateFraction('-1'), null);
  assert.equal(rateFraction('1e3'), null);
});

test('the inverse of a mid rate: exact when it ends, else 36 decimals rounded down', () => {
  assert.equal(inverseRate('60000'), '0.000016666666666666666666666666666666');
  assert.equal(inverseRate('0.5'), '2');
  assert.equal(inverseRate('0.0004'), '2500');
  assert.equal(inverseRate('8'), '0.125');
  assert.equal(inverseRate('3'), '0.333333333333333333333333333333333333');
  // Past 10^36 the inverse is below the smallest decimal the API takes.
  assert.equal(inverseRate(`1${'0'.repeat(37)}`), null);
});

test('offered rates of both directions from one mid and spread, floored in minor units', () => {
  assert.equal(offeredRate('60000', 50, 2), 5_970_000n); // 59,700.00 USD per BTC
  assert.equal(offeredRate(inverseRate('60000')!, 50, 8), 1658n); // 0.00001658 BTC per USD
  assert.equal(offeredRate('60000', 0, 2), 6_000_000n);
});
