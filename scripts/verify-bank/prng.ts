/**
 * A seeded PRNG (mulberry32): every random choice of a run comes from one of these, so a seed
 * replays the same plan (the same operations per client, the same kill moments).
 */
export class Rng {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.#s = (this.#s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** A bigint in [lo, hi] (hi - lo below 2^53). */
  big(lo: bigint, hi: bigint): bigint {
    return lo + BigInt(Math.floor(this.next() * Number(hi - lo + 1n)));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new Error('pick from an empty list');
    return xs[Math.floor(this.next() * xs.length)]!;
  }

  /** Picks a key by weight; keys with weight 0 are never picked. */
  weighted<K extends string>(weights: Partial<Record<K, number>>): K {
    const entries = Object.entries(weights).filter(([, w]) => (w as number) > 0) as Array<[K, number]>;
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let x = this.next() * total;
    for (const [k, w] of entries) {
      if ((x -= w) < 0) return k;
    }
    return entries[entries.length - 1]![0];
  }

  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(0, 9));
    return s;
  }

  /** A child generator: independent stream per client, derived from the run's seed. */
  fork(label: number): Rng {
    return new Rng(Math.imul(this.int(0, 0x7fffffff) ^ label, 0x9e3779b1) ^ label);
  }
}
