import type { AuthChanges } from './auth-changes.ts';

/**
 * Authenticated keys kept between requests, so a request with a key seen before need not read it again.
 * Every rule is still applied on every request to what is kept (revoked, removed member, expiry, allowed
 * IPs, scopes × role, the organization's status, the reconciliation flag); what is kept is dropped, all of
 * it, on every change to what it was read from. `store/auth-changes.ts` says where the changes come from.
 */
export interface AuthCache<V> {
  /** A kept value younger than the TTL, while changes are being heard; else undefined. */
  get(key: string): V | undefined;
  /** Taken before the read whose result may be kept: `keep` refuses it if anything changed since. */
  begin(): number;
  keep(token: number, key: string, value: V): void;
}

/** No cache: every request reads (CAMBIO_AUTH_CACHE_TTL_MS=0). */
export const noAuthCache: AuthCache<never> = { get: () => undefined, begin: () => 0, keep: () => {} };

/**
 * Dropped on every notification and whenever hearing them stops or starts again; bypassed (nothing
 * served, nothing kept) while they cannot be heard. A read that began before a change may return the
 * state from before it; `begin`/`keep` make sure such a result is used by its own request only and never
 * kept. `ttlMs` bounds how long anything is kept even if a change were never notified (a change made
 * with the triggers disabled, for example).
 */
export class NotifiedAuthCache<V> implements AuthCache<V> {
  readonly #entries = new Map<string, { value: V; until: number }>();
  #generation = 0;
  readonly #unsubscribe: () => void;

  constructor(
    private readonly changes: AuthChanges,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {
    this.#unsubscribe = changes.subscribe({ changed: () => this.#drop(), hearing: () => this.#drop() });
  }

  get(key: string): V | undefined {
    if (!this.changes.live) return undefined;
    const e = this.#entries.get(key);
    if (e === undefined) return undefined;
    if (e.until <= performance.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  begin(): number {
    return this.#generation;
  }

  keep(token: number, key: string, value: V): void {
    if (token !== this.#generation || !this.changes.live) return;
    if (this.#entries.size >= this.maxEntries) this.#entries.clear();
    this.#entries.set(key, { value, until: performance.now() + this.ttlMs });
  }

  /** Entries kept now (tests). */
  get size(): number {
    return this.#entries.size;
  }

  close(): void {
    this.#unsubscribe();
    this.#drop();
  }

  #drop(): void {
    this.#generation++;
    this.#entries.clear();
  }
}
