import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDate, formatDateTime, formatMoney, isFiat, localDigits } from '../src/format.ts';

test("amounts keep every digit and take the language's separators", () => {
  assert.equal(formatMoney(123456789n, 2, 'en'), '1,234,567.89');
  assert.equal(formatMoney(123456789n, 2, 'es'), '1.234.567,89');
  assert.equal(formatMoney(1234567n, 2, 'es'), '12.345,67');
  // Exactly what Intl.NumberFormat('es') writes (docs/design/people-and-apps.md): a 4-digit whole part is not grouped in Spanish.
  assert.equal(formatMoney(123456n, 2, 'es'), new Intl.NumberFormat('es', { minimumFractionDigits: 2 }).format(1234.56));
  assert.equal(formatMoney(123456n, 2, 'en'), '1,234.56');
  assert.equal(formatMoney(-5n, 8, 'es'), '-0,00000005');
  assert.equal(
    formatMoney(2n ** 256n - 1n, 0, 'en').replace(/,/g, ''),
    (2n ** 256n - 1n).toString(),
    "no digit lost past a float's precision",
  );
  assert.equal(localDigits('100000', 'es'), '100.000');
});

test('dates: one pattern per language', () => {
  const at = new Date(2026, 10, 26, 13, 45);
  assert.equal(formatDate(at, 'es'), '26/11/2026');
  assert.equal(formatDate(at, 'en'), '11/26/2026');
  assert.match(formatDateTime(at, 'es'), /^26\/11\/2026,? 13:45$/);
});

test('national currencies are fiat; crypto assets are not', () => {
  assert.equal(isFiat('USD'), true);
  assert.equal(isFiat('ARS'), true);
  assert.equal(isFiat('BTC'), false);
  assert.equal(isFiat('USDC'), false);
});
