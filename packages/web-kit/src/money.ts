import { formatMinor, parseDecimal } from '@cambio/sdk';

/**
 * Money in the browser is text (STYLE §16): what a person types is read with the SDK's exact decimal
 * parser into bigint minor units, with the asset's decimals from a response; what is shown is the
 * SDK's exact formatting, grouped. No amount ever passes through a JS number.
 */

/** Why typed text is not an amount; each app words the reason itself. */
export type AmountProblem = 'empty' | 'invalid' | 'too_many_decimals' | 'not_positive';

export type AmountReading = { ok: true; minor: bigint } | { ok: false; reason: AmountProblem };

/**
 * Decimal text typed by a person → minor units, or the reason it cannot be. Spaces anywhere are
 * ignored (`1 250.50`); a sign, an exponent or a decimal comma is not an amount; trailing zeros
 * past the asset's decimals are; `positive` refuses zero.
 */
export function readAmount(text: string, decimals: number, opts: { positive?: boolean } = {}): AmountReading {
  const t = text.replace(/\s/g, '');
  if (t === '') return { ok: false, reason: 'empty' };
  if (!/^[0-9]*(\.[0-9]*)?$/.test(t) || t === '.') return { ok: false, reason: 'invalid' };
  let minor: bigint;
  try {
    minor = parseDecimal(t, decimals);
  } catch {
    // The text has the shape of an amount: what parseDecimal refuses is a non-zero digit past the decimals.
    return { ok: false, reason: 'too_many_decimals' };
  }
  if (opts.positive && minor <= 0n) return { ok: false, reason: 'not_positive' };
  return { ok: true, minor };
}

/** `1234567.50` → `1,234,567.50`: thousands grouped on the whole part only, every decimal kept. */
export function groupDigits(decimalText: string): string {
  const neg = decimalText.startsWith('-');
  const [whole = '', frac] = (neg ? decimalText.slice(1) : decimalText).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${neg ? '-' : ''}${grouped}${frac !== undefined ? `.${frac}` : ''}`;
}

/** Minor units shown with every decimal of the asset, grouped: `showMoney(123456789n, 2)` → `1,234,567.89`. */
export function showMoney(amountMinor: bigint, decimals: number): string {
  return groupDigits(formatMinor(amountMinor, decimals));
}
