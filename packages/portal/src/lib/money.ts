import { formatMinor, parseDecimal } from '@cambio/sdk';

/**
 * Money in the browser is text (STYLE §16): the SDK's exact helpers, never Number() or toFixed().
 * `readAmount` turns what a person typed into minor units with the asset's decimals from a response.
 */
export { formatMinor };

export type AmountReading =
  | { ok: true; minor: bigint }
  | { ok: false; reason: 'empty' | 'invalid' | 'too_many_decimals' | 'not_positive' };

export function readAmount(text: string, decimals: number): AmountReading {
  const t = text.trim().replace(/\s/g, '');
  if (t === '') return { ok: false, reason: 'empty' };
  if (!/^[0-9]*(\.[0-9]*)?$/.test(t) || t === '.') return { ok: false, reason: 'invalid' };
  let minor: bigint;
  try {
    minor = parseDecimal(t, decimals);
  } catch {
    return { ok: false, reason: 'too_many_decimals' };
  }
  if (minor <= 0n) return { ok: false, reason: 'not_positive' };
  return { ok: true, minor };
}

/** `1234567.5` → `1,234,567.50` style grouping of a decimal text, for display only. */
export function groupDigits(decimalText: string): string {
  const neg = decimalText.startsWith('-');
  const [int = '', frac] = (neg ? decimalText.slice(1) : decimalText).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${neg ? '-' : ''}${grouped}${frac !== undefined ? `.${frac}` : ''}`;
}

export function showMoney(amountMinor: bigint, decimals: number): string {
  return groupDigits(formatMinor(amountMinor, decimals));
}
