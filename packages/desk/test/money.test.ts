// Amounts typed at the desk become minor units by exact string arithmetic (the web kit's readAmount, in the
// desk's words); the margin of a fill is exact. Grouped display is tested with the kit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fillMargin } from '../src/features/approvals/margin.ts';
import { limitsToText, textToLimits } from '../src/features/organizations/limits.ts';
import { readAmount } from '../src/lib/money.ts';

test("decimal text becomes minor units exactly, with the asset's decimals; more decimals is an inline error", () => {
  assert.deepEqual(readAmount('1250.5', 2), { ok: true, minor: 125050n });
  assert.deepEqual(readAmount('0.00000001', 8), { ok: true, minor: 1n });
  assert.deepEqual(readAmount('115792089237316195423570985008687907853269984665640564039457584007913129639935', 0), {
    ok: true,
    minor: 2n ** 256n - 1n,
  });
  assert.deepEqual(readAmount('1.230', 2), { ok: true, minor: 123n });
  assert.deepEqual(readAmount('1.234', 2), { ok: false, error: 'At most 2 decimals for this asset.' });
  assert.deepEqual(readAmount('1.5', 0), { ok: false, error: 'This asset has no decimals.' });
  assert.equal(readAmount('1e3', 2).ok, false);
  assert.equal(readAmount('-5', 2).ok, false);
  assert.deepEqual(readAmount('', 2), { ok: false, error: 'Enter an amount.' });
});

test('the margin of a fill is proceeds minus what the client receives, in exact minor units and bps', () => {
  assert.deepEqual(fillMargin(3_000_000n, 3_015_000n), { marginMinor: 15_000n, marginBps: 50n });
  assert.deepEqual(fillMargin(3_000_000n, 2_999_999n), { marginMinor: -1n, marginBps: 0n });
  assert.deepEqual(fillMargin(0n, 10n), { marginMinor: 10n, marginBps: null });
});

test('limits as text and back: empty is no cap, bad text names the asset', () => {
  const dec = (s: string) => (({ BTC: 8, USD: 2 }) as Record<string, number>)[s] ?? null;
  const t = limitsToText({ BTC: { maxOrderMinor: 150000000n }, USD: { maxWithdrawalMinor: 100000n } }, dec);
  assert.deepEqual(t, { BTC: { maxOrder: '1.50000000', maxWithdrawal: '' }, USD: { maxOrder: '', maxWithdrawal: '1000.00' } });
  assert.deepEqual(textToLimits(t, dec), { BTC: { maxOrderMinor: 150000000n }, USD: { maxWithdrawalMinor: 100000n } });
  assert.throws(() => textToLimits({ USD: { maxOrder: '1.001', maxWithdrawal: '' } }, dec), /USD/);
});
