// Money in the browser is text (STYLE §16): the SDK's and the web kit's exact helpers, never Number().
export { formatMinor, parseDecimal } from '@cambio/sdk';
import { readAmount as read } from '@cambio/web-kit/money';

/** Decimal text typed by a person → minor units, or the desk's words for why it cannot be. */
export function readAmount(text: string, decimals: number): { ok: true; minor: bigint } | { ok: false; error: string } {
  const r = read(text, decimals);
  if (r.ok) return r;
  switch (r.reason) {
    case 'empty': return { ok: false, error: 'Enter an amount.' };
    case 'too_many_decimals': return { ok: false, error: decimals === 0 ? 'This asset has no decimals.' : `At most ${decimals} decimals for this asset.` };
    case 'not_positive': return { ok: false, error: 'Enter an amount greater than zero.' };
    case 'invalid': return { ok: false, error: 'Write the amount as digits with at most one decimal point, e.g. 1250.50.' };
  }
}

/** Exact basis points of `part` over `whole`, truncated toward zero; null when whole is 0. */
export function bps(part: bigint, whole: bigint): bigint | null {
  if (whole === 0n) return null;
  return (part * 10_000n) / whole;
}
