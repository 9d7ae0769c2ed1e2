import type { Lang } from '@cambio/contract';
import { formatMinor, parseDecimal } from '@cambio/sdk';

/**
 * Money in the browser is text (STYLE §16): what a person types is read with the SDK's exact decimal
 * parser into bigint minor units, with the asset's decimals from a response; what is shown is the
 * SDK's exact formatting, grouped. No amount ever passes through a JS number.
 */

/** Why typed text is not an amount; each app words the reason itself. */
export type AmountProblem = 'empty' | 'invalid' | 'too_many_decimals' | 'not_positive' | 'too_large';

export type AmountReading = { ok: true; minor: bigint } | { ok: false; reason: AmountProblem };

/** The most digits an amount of minimum units may have on the wire (numeric(78,0)). */
const MAX_DIGITS = 78;

/** The decimal mark and the group separator a person of `lang` types: `0,5` and `1.000,5` in es; `0.5` and `1,000.5` in en. */
const MARKS: Record<Lang, { decimal: string; group: string }> = { en: { decimal: '.', group: ',' }, es: { decimal: ',', group: '.' } };

const escape = (c: string) => (c === '.' ? '\\.' : c);

/**
 * Text as a person of `lang` types it → the plain decimal text `parseDecimal` reads (`1.000,5` in es →
 * `1000.5`), or null when it is not one. Group separators are ignored where they group by thousands; the
 * decimal mark is the language's. Text with only the other mark, once and not grouping thousands (`0.5` in
 * es, `0,5` in en), is read as a decimal mark too: it cannot mean anything else. Ambiguous text keeps the
 * language's reading (`1.500` is 1500 in es).
 */
export function plainDecimal(text: string, lang: Lang): string | null {
  const { decimal, group } = MARKS[lang];
  const t = text.replace(/\s/g, '');
  if (!/^[0-9.,]*$/.test(t)) return null;
  const grouped = new RegExp(`^[1-9][0-9]{0,2}(${escape(group)}[0-9]{3})+$`);
  const whole = (w: string) => (/^[0-9]*$/.test(w) ? w : grouped.test(w) ? w.split(group).join('') : null);
  const parts = t.split(decimal);
  if (parts.length > 2) return null;
  if (parts.length === 2) {
    const w = whole(parts[0]!);
    if (w === null || !/^[0-9]*$/.test(parts[1]!)) return null;
    return `${w}.${parts[1]}`;
  }
  const w = whole(t);
  if (w !== null) return w;
  // Only the other mark: once, and not a thousands grouping, it is the decimal mark.
  const other = t.split(group);
  if (other.length === 2 && /^[0-9]*$/.test(other[0]!) && /^[0-9]*$/.test(other[1]!)) return `${other[0]}.${other[1]}`;
  return null;
}

/**
 * Decimal text typed by a person of `lang` (default `en`) → minor units, or the reason it cannot be.
 * Spaces anywhere are ignored (`1 250.50`), and so are group separators (`1,250.50` in en, `1.250,50`
 * in es); the decimal mark is the language's (see plainDecimal). A sign or an exponent is not an
 * amount; trailing zeros past the asset's decimals are; `positive` refuses zero; more than 78 digits
 * of minimum units is too large. Exact: text to bigint, never a JS number.
 */
export function readAmount(text: string, decimals: number, opts: { positive?: boolean; lang?: Lang } = {}): AmountReading {
  if (text.replace(/\s/g, '') === '') return { ok: false, reason: 'empty' };
  const t = plainDecimal(text, opts.lang ?? 'en');
  if (t === null || t === '.' || t === '') return { ok: false, reason: 'invalid' };
  let minor: bigint;
  try {
    minor = parseDecimal(t, decimals);
  } catch {
    // The text has the shape of an amount: what parseDecimal refuses is a non-zero digit past the decimals.
    return { ok: false, reason: 'too_many_decimals' };
  }
  if (minor.toString().length > MAX_DIGITS) return { ok: false, reason: 'too_large' };
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

/** Minor units as a person of `lang` would type them, ungrouped (`1000,50` in es, `1000.50` in en): what readAmount reads back exactly. */
export function typedAmount(amountMinor: bigint, decimals: number, lang: Lang): string {
  const s = formatMinor(amountMinor, decimals);
  return lang === 'es' ? s.replace('.', ',') : s;
}
