/**
 * How guessable a configured secret looks, before production starts with it (docs/security.md, "Weak
 * settings"). No estimate proves a secret random; these refuse what is plainly not: too short, too few
 * different characters, one piece repeated (`abcabcabc…`), or too little information in its characters
 * (the Shannon entropy of its character counts, in bits, times its length).
 */
export interface Strength {
  minLength: number;
  /** The fewest different characters (or bytes) it must use. */
  minDistinct: number;
  /** The least estimated entropy, in bits. */
  minBits: number;
}

/** CAMBIO_SECRET: `openssl rand -base64 48` estimates about 330 bits, `openssl rand -hex 32` about 240, 32 random hex digits at least ~100. */
export const SECRET_STRENGTH: Strength = { minLength: 32, minDistinct: 8, minBits: 90 };
/** OPERATOR_TOKEN: a generated one (`op_` and 32 base64url characters) estimates about 150 bits, 16 random hex digits at least ~37. */
export const TOKEN_STRENGTH: Strength = { minLength: 16, minDistinct: 6, minBits: 32 };
/** CAMBIO_LOG_SIGNING_KEY's 32 bytes: random bytes have about 30 different values. */
export const SEED_STRENGTH: Strength = { minLength: 32, minDistinct: 16, minBits: 110 };

/** The estimate: length × the Shannon entropy of the distribution of its symbols. */
export function estimatedBits(symbols: ArrayLike<string | number>): number {
  const counts = new Map<string | number, number>();
  for (let i = 0; i < symbols.length; i++) counts.set(symbols[i]!, (counts.get(symbols[i]!) ?? 0) + 1);
  let perSymbol = 0;
  for (const n of counts.values()) {
    const p = n / symbols.length;
    perSymbol -= p * Math.log2(p);
  }
  return perSymbol * symbols.length;
}

/** A piece repeated: the whole is `x` followed by copies of `x`. */
function repeats(symbols: ArrayLike<string | number>): boolean {
  const n = symbols.length;
  for (let period = 1; period <= n / 2; period++) {
    if (n % period !== 0) continue;
    let same = true;
    for (let i = period; i < n && same; i++) same = symbols[i] === symbols[i - period];
    if (same) return true;
  }
  return false;
}

/** Why `value` is too weak (a phrase that completes "must …"), or null when it passes. */
export function weakness(value: string | Uint8Array, s: Strength): string | null {
  const symbols: ArrayLike<string | number> = typeof value === 'string' ? [...value] : value;
  const unit = typeof value === 'string' ? 'characters' : 'bytes';
  if (symbols.length < s.minLength) return `be at least ${s.minLength} ${unit}`;
  if (new Set(Array.from(symbols)).size < s.minDistinct || repeats(symbols) || estimatedBits(symbols) < s.minBits)
    return `be random: this one is too easy to guess (it needs at least ${s.minDistinct} different ${unit}, no repeated piece, about ${s.minBits} bits of entropy)`;
  return null;
}
