/**
 * A mid rate and the other direction's (docs/design/money-and-states.md, the pricing rule), exact: decimal text to
 * a bigint fraction, never a JS number. The operator API takes a mid rate as decimal text with at most 36
 * decimals, so the inverse of a rate is written to 36 decimals, rounded down: the platform never offers
 * more than the exact inverse would.
 */
const RATE = /^([0-9]{1,40})(?:\.([0-9]{1,36}))?$/;
const MAX_DECIMALS = 36;
const BPS = 10_000n;

export interface Fraction {
  num: bigint;
  den: bigint;
}

/** `"65000.25"` → 6500025/100; null for anything the API would not take as a mid rate, or zero. */
export function rateFraction(text: string): Fraction | null {
  const m = RATE.exec(text);
  if (!m) return null;
  const frac = m[2] ?? '';
  const num = BigInt(m[1]! + frac);
  return num === 0n ? null : { num, den: 10n ** BigInt(frac.length) };
}

/** den/num to at most 36 decimals, rounded down, trailing zeros dropped; null when the text is no rate or the inverse rounds to 0. */
export function inverseRate(text: string): string | null {
  const r = rateFraction(text);
  if (!r) return null;
  const scaled = (r.den * 10n ** BigInt(MAX_DECIMALS)) / r.num;
  if (scaled === 0n) return null;
  const digits = scaled.toString().padStart(MAX_DECIMALS + 1, '0');
  const whole = digits.slice(0, -MAX_DECIMALS);
  const frac = digits.slice(-MAX_DECIMALS).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

/** The rate clients are offered: floor(m × (1 − spreadBps/10⁴) × 10^dq), quote minor units per whole base unit. */
export function offeredRate(text: string, spreadBps: number, quoteDecimals: number): bigint | null {
  const r = rateFraction(text);
  if (!r) return null;
  return (r.num * (BPS - BigInt(spreadBps)) * 10n ** BigInt(quoteDecimals)) / (r.den * BPS);
}
