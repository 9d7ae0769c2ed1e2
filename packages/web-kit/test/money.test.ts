import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatMoney } from '../src/format.ts';
import { groupDigits, readAmount, showMoney } from '../src/money.ts';

test('typed decimal text becomes exact minor units with the asset decimals', () => {
  assert.deepEqual(readAmount('1.5', 8), { ok: true, minor: 150000000n });
  assert.deepEqual(readAmount(' 0.00000001 ', 8), { ok: true, minor: 1n });
  assert.deepEqual(readAmount('1250.5', 2), { ok: true, minor: 125050n });
  assert.deepEqual(readAmount('1 250.50', 2), { ok: true, minor: 125050n });
  assert.deepEqual(readAmount('115792089237316195423570985008687907853269984665640564039457584007913129639935', 0), {
    ok: true,
    minor: 2n ** 256n - 1n,
  });
  assert.deepEqual(readAmount('12.30', 1), { ok: true, minor: 123n });
  assert.deepEqual(readAmount('1.230', 2), { ok: true, minor: 123n });
  assert.deepEqual(readAmount('.5', 2), { ok: true, minor: 50n });
  assert.deepEqual(readAmount('7.', 2), { ok: true, minor: 700n });
});

test('more decimals than the asset has, or anything not an amount, is refused with a reason', () => {
  assert.deepEqual(readAmount('0.001', 2), { ok: false, reason: 'too_many_decimals' });
  assert.deepEqual(readAmount('1.5', 0), { ok: false, reason: 'too_many_decimals' });
  assert.deepEqual(readAmount('', 2), { ok: false, reason: 'empty' });
  assert.deepEqual(readAmount('   ', 2), { ok: false, reason: 'empty' });
  for (const bad of ['1e3', '-1', '+1', '1,5,6', '.', '1.2.3', 'NaN', 'Infinity', '0x10', '١٢']) {
    assert.deepEqual(readAmount(bad, 2), { ok: false, reason: 'invalid' }, bad);
  }
});

test("amounts are read in the person's language: decimal comma in es, group separators ignored, still exact", () => {
  const es = { lang: 'es' as const };
  assert.deepEqual(readAmount('0,5', 8, es), { ok: true, minor: 50000000n });
  assert.deepEqual(readAmount('1.000,5', 2, es), { ok: true, minor: 100050n });
  assert.deepEqual(readAmount('1.234.567,89', 2, es), { ok: true, minor: 123456789n });
  assert.deepEqual(readAmount('1.500', 2, es), { ok: true, minor: 150000n }, 'a dot grouping thousands is a group separator in es');
  assert.deepEqual(readAmount('0.5', 2, es), { ok: true, minor: 50n }, 'a single dot that cannot group is the decimal mark');
  assert.deepEqual(readAmount('1 000,25', 2, es), { ok: true, minor: 100025n });
  assert.deepEqual(readAmount('0,000000001', 8, es), { ok: false, reason: 'too_many_decimals' });
  for (const bad of ['1,000.5', '1,2,3', '1.00,5', '12.34.5', ','])
    assert.deepEqual(readAmount(bad, 2, es), { ok: false, reason: 'invalid' }, bad);

  assert.deepEqual(readAmount('1,000.5', 2, { lang: 'en' }), { ok: true, minor: 100050n });
  assert.deepEqual(readAmount('1,234,567.89', 2), { ok: true, minor: 123456789n });
  assert.deepEqual(readAmount('1,500', 2), { ok: true, minor: 150000n });
  assert.deepEqual(readAmount('0,5', 2), { ok: true, minor: 50n });
  for (const bad of ['1.000,5', '1,00.5', '12,34,5']) assert.deepEqual(readAmount(bad, 2), { ok: false, reason: 'invalid' }, bad);

  const huge = `${'9'.repeat(78)}`;
  assert.deepEqual(readAmount(huge, 0), { ok: true, minor: 10n ** 78n - 1n });
  assert.deepEqual(readAmount(`${'9'.repeat(80)}`, 0), { ok: false, reason: 'too_large' });
  assert.deepEqual(
    readAmount(`${'1'.repeat(77)}`, 2),
    { ok: false, reason: 'too_large' },
    '77 digits and 2 decimals are 79 digits of minimum units',
  );
});

test('zero is an amount unless a positive one is asked for', () => {
  assert.deepEqual(readAmount('0.00', 2), { ok: true, minor: 0n });
  assert.deepEqual(readAmount('0.00', 2, { positive: true }), { ok: false, reason: 'not_positive' });
  assert.deepEqual(readAmount('0.01', 2, { positive: true }), { ok: true, minor: 1n });
});

test('amounts show grouped on the whole part only, with every decimal of the asset', () => {
  assert.equal(showMoney(123456789n, 2), '1,234,567.89');
  assert.equal(showMoney(123456789012n, 2), '1,234,567,890.12');
  assert.equal(showMoney(5n, 8), '0.00000005');
  assert.equal(showMoney(-5n, 8), '-0.00000005');
  assert.equal(showMoney(-100n, 2), '-1.00');
  assert.equal(showMoney(1000n, 0), '1,000');
  assert.equal(
    showMoney(2n ** 256n - 1n, 18),
    '115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457.584007913129639935',
  );
});

test('digit grouping leaves the decimals and the sign as they are', () => {
  assert.equal(groupDigits('1234567.1234567'), '1,234,567.1234567');
  assert.equal(groupDigits('-999'), '-999');
  assert.equal(groupDigits('-1000'), '-1,000');
  assert.equal(groupDigits('0'), '0');
  assert.equal(groupDigits('100000.'), '100,000.');
});

test("amounts in a person's language are Intl's, exact to the last decimal of the asset, never through a float", () => {
  assert.equal(formatMoney(123456789n, 2, 'es'), '1.234.567,89');
  assert.equal(formatMoney(123456789n, 2, 'es'), new Intl.NumberFormat('es', { minimumFractionDigits: 2 }).format(1234567.89));
  assert.equal(formatMoney(1n, 8, 'es'), '0,00000001');
  assert.equal(formatMoney(123456789012345678901234567890n, 18, 'es'), '123.456.789.012,345678901234567890');
  assert.equal(formatMoney(-250000n, 2, 'es'), '-2500,00', 'Intl groups Spanish thousands from five digits on');
  assert.equal(formatMoney(123456789n, 2, 'en'), showMoney(123456789n, 2));
});
