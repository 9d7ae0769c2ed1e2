/** A non-negative rational number held exactly: num / den, den > 0. Prices are rationals, never floats. */
export interface Rational {
  num: bigint;
  den: bigint;
}

const DECIMAL = /^([0-9]{1,40})(?:\.([0-9]{1,36}))?$/;

/** `"65000.25"` → 6500025/100. Anything but plain decimal digits (sign, exponent, blanks) is null. */
export function parseDecimalRational(text: string): Rational | null {
  const m = DECIMAL.exec(text);
  if (!m) return null;
  const frac = m[2] ?? '';
  return { num: BigInt(m[1]! + frac), den: 10n ** BigInt(frac.length) };
}

/** floor(n / d) for n ≥ 0, d > 0 (bigint division truncates, which is floor for non-negatives). */
export const floorDiv = (n: bigint, d: bigint): bigint => n / d;

/** ceil(n / d) for n ≥ 0, d > 0. */
export const ceilDiv = (n: bigint, d: bigint): bigint => (n + d - 1n) / d;
