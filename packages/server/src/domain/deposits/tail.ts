import { randomBytes } from 'node:crypto';
import { DomainError } from '../errors.ts';
import { formatUnits, pow10 } from '../money.ts';

/**
 * The unique tail (spec: Deposit declaration). The expected amount is the declared amount plus a
 * random tail in its last `width` digits of minor units, so that the amount alone recognises the arrival.
 *
 * Rule: width = min(decimals, 4), tail in [1, 10^width − 1]; an asset with no decimals has none to
 * carry the tail, so it goes in the last two units of the integer amount (width 2: 1 to 99 units,
 * 99 amounts per band like a 2-decimal asset, where one digit would give only 9). The declared amount
 * must be at least 10^(width+1) minor units, so the tail is always under a tenth of what the client
 * means to send (USD with 2 decimals: from 10.00; BTC with 8: from 0.001; an asset with 0 decimals:
 * from 1000). Anything smaller is "too small to be made unique" (422 deposits.amount_too_small).
 */
export const MAX_TAIL_WIDTH = 4;
/** The tail width of an asset with no decimals: its last units carry the tail. */
export const INTEGER_TAIL_WIDTH = 2;
/**
 * How long an expected amount stays out of use after its declaration's expiry, whether the
 * declaration was matched or expired: a late or repeated transfer of that amount must not be credited
 * automatically to whoever drew the same amount next. The unique index over open declarations stays
 * the hard guarantee; this is the rule for choosing a tail.
 */
export const TAIL_QUARANTINE_MS = 7 * 24 * 60 * 60 * 1000;
const MAX_AMOUNT = pow10(78) - 1n; // numeric(78,0)

export interface TailPlan {
  width: number;
  /** Smallest and largest tail; every expected amount lies in [declared + min, declared + max]. */
  min: bigint;
  max: bigint;
}

export function tailWidth(decimals: number): number {
  return decimals === 0 ? INTEGER_TAIL_WIDTH : Math.min(decimals, MAX_TAIL_WIDTH);
}

/** The smallest declared amount a tail can make unique, in minor units. */
export const smallestDeclarable = (decimals: number): bigint => pow10(tailWidth(decimals) + 1);

/** `assetSymbol` names the asset in the refusal, whose message states the bound in its units ("0.001 BTC"). */
export function tailPlan(decimals: number, declared: bigint, assetSymbol = ''): TailPlan {
  const width = tailWidth(decimals);
  const smallest = smallestDeclarable(decimals);
  if (declared < smallest)
    throw new DomainError('deposits.amount_too_small', {
      asset: assetSymbol,
      min: smallest.toString(),
      minUnits: formatUnits(smallest, decimals),
    });
  const max = pow10(width) - 1n;
  if (declared + max > MAX_AMOUNT) throw new DomainError('request.invalid_amount', { field: 'declaredAmountMinor' });
  return { width, min: 1n, max };
}

/** A uniform random bigint in [0, n), from the system's cryptographic source (rejection sampling, no bias). */
export type RandomBelow = (n: bigint) => bigint;
export const cryptoRandomBelow: RandomBelow = (n) => {
  if (n <= 0n) throw new RangeError('n must be positive');
  const bytes = (n - 1n).toString(16).length;
  const byteLen = Math.trunc((bytes + 1) / 2) || 1;
  const limit = 256n ** BigInt(byteLen);
  const cutoff = limit - (limit % n);
  for (;;) {
    const v = BigInt(`0x${randomBytes(byteLen).toString('hex')}`);
    if (v < cutoff) return v % n;
  }
};

/**
 * A random tail not in `taken` (tails of open or quarantined declarations in this band), or null when
 * every tail of the band is taken. Picks among the free ones, so a nearly full band still succeeds.
 */
export function pickTail(plan: TailPlan, taken: ReadonlySet<bigint>, random: RandomBelow = cryptoRandomBelow): bigint | null {
  const size = plan.max - plan.min + 1n;
  const free = size - BigInt([...taken].filter((t) => t >= plan.min && t <= plan.max).length);
  if (free <= 0n) return null;
  // The k-th free tail, counting up from min: walk the (sorted) taken tails below it.
  let k = random(free);
  let t = plan.min;
  for (const used of [...taken].filter((x) => x >= plan.min && x <= plan.max).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (used - t > k) break;
    k -= used - t;
    t = used + 1n;
  }
  return t + k;
}
