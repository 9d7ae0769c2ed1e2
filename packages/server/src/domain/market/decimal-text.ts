import { pow10 } from '../money.ts';
import type { Rational } from './rational.ts';

const DECIMAL = /^([0-9]{1,78})(?:\.([0-9]{1,40}))?$/;

/**
 * A venue writes prices, quantities and fees as decimal text ("0.00100000"). They are read here into
 * exact rationals, never through a JS number: a venue answer that is not plain decimal text is an
 * error of the venue, never a guess.
 */
export class VenueNumberError extends Error {}

/** `"65000.10"` → 6500010/100; anything but plain non-negative decimal text throws VenueNumberError. */
export function readDecimal(text: unknown, what = 'number'): Rational {
  const m = typeof text === 'string' ? DECIMAL.exec(text.trim()) : null;
  if (!m) throw new VenueNumberError(`the venue's ${what} is not decimal text: ${JSON.stringify(text)}`);
  const frac = m[2] ?? '';
  return { num: BigInt(m[1]! + frac), den: pow10(frac.length) };
}

/** r in whole units → minor units at `decimals`, truncated (a remainder below one minor unit is dropped). */
export function truncateToMinor(r: Rational, decimals: number): bigint {
  return (r.num * pow10(decimals)) / r.den;
}

/** A non-negative rational in minimum units of `decimals`, rounded up (a cost never under-counted). */
export function ceilToMinor(r: Rational, decimals: number): bigint {
  const scaled = r.num * pow10(decimals);
  return scaled / r.den + (scaled % r.den === 0n ? 0n : 1n);
}

const gcd = (a: bigint, b: bigint): bigint => {
  while (b !== 0n) [a, b] = [b, a % b];
  return a < 0n ? -a : a;
};

/** Rationals kept in lowest terms, so walking a deep book does not grow the numbers without end. */
export const rat = (num: bigint, den = 1n): Rational => {
  const g = gcd(num, den) || 1n;
  return { num: num / g, den: den / g };
};
export const add = (a: Rational, b: Rational): Rational => rat(a.num * b.den + b.num * a.den, a.den * b.den);
export const sub = (a: Rational, b: Rational): Rational => rat(a.num * b.den - b.num * a.den, a.den * b.den);
export const mul = (a: Rational, b: Rational): Rational => rat(a.num * b.num, a.den * b.den);
export const div = (a: Rational, b: Rational): Rational => rat(a.num * b.den, a.den * b.num);
export const cmp = (a: Rational, b: Rational): number => {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
};
export const minR = (a: Rational, b: Rational): Rational => (cmp(a, b) <= 0 ? a : b);
export const ZERO: Rational = { num: 0n, den: 1n };

/** Minor units at `decimals` as the whole-unit rational they stand for. */
export const fromMinor = (minor: bigint, decimals: number): Rational => rat(minor, pow10(decimals));

/** Exact decimal text of a rational whose denominator divides 10^k for some k ≤ 36; null otherwise. */
export function toDecimalText(r: Rational): string | null {
  for (let k = 0; k <= 36; k++) {
    const scale = pow10(k);
    if ((r.num * scale) % r.den === 0n) {
      const digits = ((r.num * scale) / r.den).toString().padStart(k + 1, '0');
      return k === 0 ? digits : `${digits.slice(0, -k)}.${digits.slice(-k)}`;
    }
  }
  return null;
}
