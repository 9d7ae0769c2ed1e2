/**
 * Money is bigint minor units, end to end (docs/design/money-and-states.md). Nothing here touches a JS number except
 * to accept a safe JSON integer from the wire, which is checked to be a safe integer first.
 */
export const MAX_DIGITS = 78;
const DIGITS = /^[0-9]{1,78}$/;
const SIGNED = /^-?[0-9]{1,78}$/;

const LIMIT = 10n ** 78n;

/**
 * Accepts a digit string, a safe JSON integer, or a bigint (a JSON integer beyond 2^53, as the body
 * parser reads it) of at most 78 digits; anything else returns null (the caller refuses it).
 */
export function toMinor(input: unknown, opts: { signed?: boolean } = {}): bigint | null {
  if (typeof input === 'bigint') {
    if (input >= LIMIT || input <= -LIMIT) return null;
    return input < 0n && !opts.signed ? null : input;
  }
  if (typeof input === 'number') {
    if (!Number.isSafeInteger(input)) return null;
    if (input < 0 && !opts.signed) return null;
    return BigInt(input);
  }
  if (typeof input === 'string' && (opts.signed ? SIGNED : DIGITS).test(input)) return BigInt(input);
  return null;
}

/** 10^n as a bigint. */
export function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/** `12345`, 2 decimals → `"123.45"`; `5`, 4 → `"0.0005"`; signed amounts keep their sign. */
export function formatDecimal(minor: bigint, decimals: number): string {
  const neg = minor < 0n;
  const abs = neg ? -minor : minor;
  if (decimals === 0) return (neg ? '-' : '') + abs.toString();
  const s = abs.toString().padStart(decimals + 1, '0');
  return `${neg ? '-' : ''}${s.slice(0, -decimals)}.${s.slice(-decimals)}`;
}

/**
 * An amount for a person to read, in the asset's units without trailing zeros: `100000`, 8 → `"0.001"`;
 * `1000`, 2 → `"10"`. Exact: string work on the digits, never a JS number.
 */
export function formatUnits(minor: bigint, decimals: number): string {
  const s = formatDecimal(minor, decimals);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** `"123.45"`, 2 → `12345n`. More fractional digits than decimals is refused (null), never rounded. */
export function parseDecimal(text: string, decimals: number): bigint | null {
  const m = /^(-)?([0-9]+)(?:\.([0-9]+))?$/.exec(text.trim());
  if (!m) return null;
  const frac = m[3] ?? '';
  if (frac.length > decimals) return null;
  const v = BigInt(m[2]! + frac.padEnd(decimals, '0'));
  return m[1] ? -v : v;
}

export const minBig = (a: bigint, b: bigint) => (a < b ? a : b);
