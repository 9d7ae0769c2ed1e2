// Money in the browser is text (STYLE §16): the SDK's and the web kit's exact helpers, never Number().
export { formatMinor, parseDecimal } from '@cambio/sdk';
import { readAmount as read } from '@cambio/web-kit/money';
import { t } from './i18n.ts';

/** Decimal text typed by a person → minor units, or the desk's words for why it cannot be. */
export function readAmount(text: string, decimals: number): { ok: true; minor: bigint } | { ok: false; error: string } {
  const r = read(text, decimals);
  if (r.ok) return r;
  switch (r.reason) {
    case 'empty': return { ok: false, error: t('amount.empty') };
    case 'too_many_decimals': return { ok: false, error: decimals === 0 ? t('amount.noDecimals') : t('amount.tooManyDecimals', { n: decimals }) };
    case 'not_positive': return { ok: false, error: t('amount.notPositive') };
    case 'invalid': return { ok: false, error: t('amount.invalid') };
  }
}

/** Exact basis points of `part` over `whole`, truncated toward zero; null when whole is 0. */
export function bps(part: bigint, whole: bigint): bigint | null {
  if (whole === 0n) return null;
  return (part * 10_000n) / whole;
}
