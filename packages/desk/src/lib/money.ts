// Money in the browser is text (STYLE §16): the SDK's exact helpers, one implementation, never Number().
export { formatMinor, parseDecimal, Money } from '@cambio/sdk';
import { formatMinor, parseDecimal } from '@cambio/sdk';

/** Decimal text typed by a person → minor units, or the reason it cannot be. */
export function readAmount(text: string, decimals: number, opts: { signed?: boolean } = {}): { ok: true; minor: bigint } | { ok: false; error: string } {
  const t = text.trim();
  if (t === '') return { ok: false, error: 'Enter an amount.' };
  try {
    return { ok: true, minor: parseDecimal(t, decimals, opts) };
  } catch {
    const frac = /\.([0-9]*)$/.exec(t)?.[1] ?? '';
    if (/^[-+]?[0-9]*\.[0-9]+$/.test(t) && frac.replace(/0+$/, '').length > decimals) {
      return { ok: false, error: decimals === 0 ? 'This asset has no decimals.' : `At most ${decimals} decimals for this asset.` };
    }
    return { ok: false, error: 'Write the amount as digits with at most one decimal point, e.g. 1250.50.' };
  }
}

/** `1234567.5` → `1,234,567.50` with the asset's decimals: thousands grouped on the whole part only. */
export function formatGrouped(minor: bigint, decimals: number): string {
  const s = formatMinor(minor, decimals);
  const neg = s.startsWith('-');
  const [whole, frac] = (neg ? s.slice(1) : s).split('.') as [string, string | undefined];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${neg ? '-' : ''}${grouped}${frac !== undefined ? `.${frac}` : ''}`;
}

/** Exact basis points of `part` over `whole`, truncated toward zero, as text ("12 bps"); null when whole is 0. */
export function bps(part: bigint, whole: bigint): bigint | null {
  if (whole === 0n) return null;
  return (part * 10_000n) / whole;
}
