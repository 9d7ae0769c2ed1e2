import assert from 'node:assert/strict';
import { test } from 'node:test';
import { add, cmp, div, fromMinor, mul, readDecimal, sub, toDecimalText, truncateToMinor, VenueNumberError } from './decimal-text.ts';

test('venue decimal text is read exactly, trailing zeros and all', () => {
  assert.deepEqual(readDecimal('0.00100000'), { num: 100000n, den: 100000000n });
  assert.deepEqual(readDecimal('65000.10'), { num: 6500010n, den: 100n });
  assert.deepEqual(readDecimal('12'), { num: 12n, den: 1n });
  // 2^256 − 1 whole units plus a fraction survive: no JS number on the way.
  const big = '115792089237316195423570985008687907853269984665640564039457.584007913129639935';
  assert.equal(toDecimalText(readDecimal(big)), big);
});

test("anything but plain decimal text is the venue's error, never a guess", () => {
  for (const bad of ['1e-8', '-1', '', ' ', 'NaN', '0x10', '1,5', 0.1, null, undefined]) {
    assert.throws(() => readDecimal(bad), VenueNumberError, String(bad));
  }
});

test("truncation to an asset's decimals drops the remainder below one minor unit", () => {
  assert.equal(truncateToMinor(readDecimal('64935.123456'), 2), 6493512n);
  assert.equal(truncateToMinor(readDecimal('0.000000019'), 8), 1n);
  assert.equal(truncateToMinor(readDecimal('0.000000009'), 8), 0n);
});

test('rational arithmetic stays exact and reduced', () => {
  const a = readDecimal('0.1');
  const b = readDecimal('0.2');
  assert.deepEqual(add(a, b), { num: 3n, den: 10n }); // never 0.30000000000000004
  assert.deepEqual(sub(b, a), { num: 1n, den: 10n });
  assert.deepEqual(mul(readDecimal('65000.5'), readDecimal('0.002')), { num: 130001n, den: 1000n });
  assert.deepEqual(div(readDecimal('1'), readDecimal('3')), { num: 1n, den: 3n });
  assert.equal(cmp(div(readDecimal('1'), readDecimal('3')), readDecimal('0.3333333333')), 1);
  assert.equal(toDecimalText(fromMinor(1_000n, 8)), '0.00001');
  assert.equal(toDecimalText(div(readDecimal('1'), readDecimal('3'))), null);
});
