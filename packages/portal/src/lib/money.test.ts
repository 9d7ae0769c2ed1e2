import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readAmount, showMoney } from './money.ts';

test('typed decimal text becomes exact minor units with the asset decimals', () => {
  assert.deepEqual(readAmount('1.5', 8), { ok: true, minor: 150000000n });
  assert.deepEqual(readAmount(' 0.00000001 ', 8), { ok: true, minor: 1n });
  assert.deepEqual(readAmount('115792089237316195423570985008687907853269984665640564039457584007913129639935', 0),
    { ok: true, minor: 115792089237316195423570985008687907853269984665640564039457584007913129639935n });
  assert.deepEqual(readAmount('12.30', 1), { ok: true, minor: 123n });
});

test('more decimals than the asset has, or anything not a positive amount, is refused with a reason', () => {
  assert.deepEqual(readAmount('0.001', 2), { ok: false, reason: 'too_many_decimals' });
  assert.deepEqual(readAmount('', 2), { ok: false, reason: 'empty' });
  assert.deepEqual(readAmount('1e3', 2), { ok: false, reason: 'invalid' });
  assert.deepEqual(readAmount('-1', 2), { ok: false, reason: 'invalid' });
  assert.deepEqual(readAmount('1,5', 2), { ok: false, reason: 'invalid' });
  assert.deepEqual(readAmount('0.00', 2), { ok: false, reason: 'not_positive' });
});

test('amounts show grouped with every decimal of the asset', () => {
  assert.equal(showMoney(123456789n, 2), '1,234,567.89');
  assert.equal(showMoney(5n, 8), '0.00000005');
  assert.equal(showMoney(-100n, 2), '-1.00');
});
