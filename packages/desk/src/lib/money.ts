// Money in the browser is text (STYLE §16): the SDK's and the web kit's exact helpers, never Number().
export { formatMinor, parseDecimal } from '@cambio/sdk';
import type { Lang } from '@cambio/contract';
import { readAmount as read } from '@cambio/web-kit/money';

/**
 * What a person is told when typed text is not an amount. The pages pass the desk's language
 * (`amountWords` of lib/i18n.ts); this file stays free of the app's frame so Node's tests load it.
 */
export interface AmountWords {
  empty: string;
  noDecimals: string;
  tooManyDecimals: (decimals: number) => string;
  notPositive: string;
  invalid: string;
  tooLarge: string;
  /** The person's language: its decimal mark and group separator (web kit's readAmount). */
  lang: Lang;
}

export const ENGLISH_AMOUNT_WORDS: AmountWords = {
  empty: 'Enter an amount.',
  noDecimals: 'This asset has no decimals.',
  tooManyDecimals: (n) => `At most ${n} decimals for this asset.`,
  notPositive: 'Enter an amount greater than zero.',
  invalid: 'Write the amount as digits with at most one decimal point, e.g. 1,250.50.',
  tooLarge: 'This amount is too large.',
  lang: 'en',
};

/** Decimal text typed by a person → minor units, or the words for why it cannot be. */
export function readAmount(
  text: string,
  decimals: number,
  words: AmountWords = ENGLISH_AMOUNT_WORDS,
): { ok: true; minor: bigint } | { ok: false; error: string } {
  const r = read(text, decimals, { lang: words.lang });
  if (r.ok) return r;
  switch (r.reason) {
    case 'empty':
      return { ok: false, error: words.empty };
    case 'too_many_decimals':
      return { ok: false, error: decimals === 0 ? words.noDecimals : words.tooManyDecimals(decimals) };
    case 'not_positive':
      return { ok: false, error: words.notPositive };
    case 'invalid':
      return { ok: false, error: words.invalid };
    case 'too_large':
      return { ok: false, error: words.tooLarge };
  }
}

/** Exact basis points of `part` over `whole`, truncated toward zero; null when whole is 0. */
export function bps(part: bigint, whole: bigint): bigint | null {
  if (whole === 0n) return null;
  return (part * 10_000n) / whole;
}
