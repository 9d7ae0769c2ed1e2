import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDecimal, formatUnits, parseDecimal, toMinor } from './money.ts';

test('toMinor accepts digit strings and safe integers, exactly', () => {
  assert.equal(toMinor('0'), 0n);
  assert.equal(toMinor(42), 42n);
  const max = (2n ** 256n - 1n).toString();
  assert.equal(toMinor(max), 2n ** 256n - 1n);
  assert.equal(toMinor('9'.repeat(78)), 10n ** 78n - 1n);
});

test('toMinor refuses what is not whole minor units', () => {
  for (const bad of ['9'.repeat(79), '1.5', '1e3', '', '-1', ' 1', '0x10', 1.5, -1, Number.MAX_SAFE_INTEGER + 1, null, true, {}, []]) {
    assert.equal(toMinor(bad), null, String(bad));
  }
  assert.equal(toMinor('-5', { signed: true }), -5n);
  assert.equal(toMinor(-5, { signed: true }), -5n);
});

test('decimal text uses the decimals given', () => {
  assert.equal(formatDecimal(12345n, 2), '123.45');
  assert.equal(formatDecimal(5n, 4), '0.0005');
  assert.equal(formatDecimal(7n, 0), '7');
  assert.equal(formatDecimal(-150n, 2), '-1.50');
  assert.equal(formatDecimal(10n ** 18n + 1n, 18), '1.000000000000000001');
  assert.equal(formatUnits(10_000n, 8), '0.0001', 'for a person: no trailing zeros');
  assert.equal(formatUnits(1_000n, 2), '10');
  assert.equal(formatUnits(1_000n, 0), '1000');
  assert.equal(formatUnits(10n ** 40n + 5n, 36), '10000.000000000000000000000000000000000005');
  assert.equal(parseDecimal('123.45', 2), 12345n);
  assert.equal(parseDecimal('0.5', 8), 50000000n);
  assert.equal(parseDecimal('1', 0), 1n);
  assert.equal(parseDecimal('1.234', 2), null, 'more digits than decimals is refused, not rounded');
  assert.equal(parseDecimal('abc', 2), null);
});

test('toMinor takes a bigint (a JSON integer beyond 2^53) of at most 78 digits, signed only when allowed', () => {
  assert.equal(toMinor(2n ** 256n - 1n), 2n ** 256n - 1n);
  assert.equal(toMinor(10n ** 78n - 1n), 10n ** 78n - 1n);
  assert.equal(toMinor(10n ** 78n), null);
  assert.equal(toMinor(-(10n ** 78n), { signed: true }), null);
  assert.equal(toMinor(-(2n ** 60n)), null);
  assert.equal(toMinor(-(2n ** 60n), { signed: true }), -(2n ** 60n));
});
