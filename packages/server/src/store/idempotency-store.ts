import { sql } from 'kysely';
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_RETENTION_MS } from '../domain/idempotency/retention.ts';
import type { Clock } from '../domain/ports.ts';
import { keepAnswersSql, keyOf, type KeptAnswer } from './answers-in-work.ts';
import { Batcher } from './batcher.ts';
import type { Db } from './db.ts';

/** What a request carrying an Idempotency-Key meets (CONTRACT §10). */
export type Claim =
  { kind: 'claimed' } | { kind: 'in_progress' } | { kind: 'key_reused' } | { kind: 'replay'; status: number; response: string };

export interface ClaimInput {
  scope: string;
  key: string;
  fingerprint: string;
}

/** The most key hashes a PGlite process keeps to skip lookups of keys that have no row (some 30 MB). */
const KNOWN_CAP = 1_000_000;

/** FNV-1a of a string's UTF-16 code units, 30 bits (a V8 small integer). */
function hash30(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}

export { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_RETENTION_MS };

/**
 * Idempotency keys: claimed in their own short transaction before the request runs, completed with the
 * answer after it, released when the answer says nothing was decided (so a retry runs again). A claim
 * whose request died (a crash) is abandoned after IDEMPOTENCY_LEASE_MS and may be taken by the next request.
 */
export class IdempotencyStore {
  /**
   * `claimsInMemory`: the database is owned by this one process (PGlite: data-dir-lock.ts; the opened
   * database says so, OpenedDb.ownedByOneProcess, so nothing here names a backend). A claim is then held in
   * this process only (`#held`, until it is answered or released, or its lease lapses) and costs the
   * database one batched lookup of the key; the answer's row is inserted by the work (answers-in-work.ts)
   * instead of a claim's row being inserted and then updated. A crash forgets the claims with the work
   * they were for. On PostgreSQL other instances must see the claim: it is a row.
   */
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly claimsInMemory = false,
  ) {}

  /**
   * Whether a route may leave the claim to its work (its one statement, or its transaction before it
   * writes anything: answers-in-work.ts, claimKeysAsWrittenCtes): on PostgreSQL. On PGlite a claim costs no round trip (claimsInMemory).
   */
  get claimsInWork(): boolean {
    return !this.claimsInMemory;
  }

  /** Keys claimed in this process (claimsInMemory): scope and key → when the claim's lease lapses (ms). */
  readonly #held = new Map<string, number>();

  async claim(c: ClaimInput): Promise<Claim> {
    if (this.claimsInMemory) return this.#claimInMemory(c);
    // The common case is a new key: claims arriving together share one statement.
    if (await this.#claims.load(c)) return { kind: 'claimed' };
    return this.#claimHeld(c);
  }

  async #claimInMemory(c: ClaimInput): Promise<Claim> {
    const id = keyOf(c);
    const now = this.clock.now().getTime();
    const lapses = this.#held.get(id);
    if (lapses !== undefined && lapses > now) return { kind: 'in_progress' };
    // Held before the lookup: a request with the same key arriving meanwhile meets it in flight.
    this.#held.set(id, now + IDEMPOTENCY_LEASE_MS);
    try {
      // A key this process never claimed and did not find at its start has no row: no lookup.
      if (!(await this.#mayHaveRow(id))) return { kind: 'claimed' };
      if (!(await this.#lookups.load(c))) return { kind: 'claimed' };
      const claim = await this.#claimHeld(c);
      if (claim.kind !== 'claimed') this.#held.delete(id);
      return claim;
    } catch (e) {
      this.#held.delete(id);
      throw e;
    }
  }

  /**
   * claimsInMemory: a hash of every key that may have a row, as a filter in front of the lookup. Only this
   * process writes the table (data-dir-lock.ts), so the rows found at the first claim and the keys claimed
   * since are all there can be; a key whose hash is absent has no row. A hash shared by two keys, or a key
   * purged since, costs a lookup, never a wrong answer. Past KNOWN_CAP hashes the filter is dropped for
   * good (a lookup every time) rather than grow without bound.
   */
  #known: Set<number> | null | undefined;
  #knownLoading: Promise<Set<number> | null> | undefined;

  /** Whether the key may have a row; it may from now on (its claim may write one). */
  async #mayHaveRow(id: string): Promise<boolean> {
    const known =
      this.#known !== undefined
        ? this.#known
        : await (this.#knownLoading ??= this.#loadKnown().catch((e: unknown) => {
            this.#knownLoading = undefined;
            throw e;
          }));
    if (known === null) return true;
    const h = hash30(id);
    if (known.has(h)) return true;
    if (known.size >= KNOWN_CAP) this.#known = null;
    else known.add(h);
    return false;
  }

  async #loadKnown(): Promise<Set<number> | null> {
    const r = await sql<{ scope: string; key: string }>`select scope, key from idempotency_keys`.execute(this.db);
    this.#known = r.rows.length < KNOWN_CAP ? new Set(r.rows.map((x) => hash30(keyOf(x)))) : null;
    return this.#known;
  }

  /** Whether each key has a row (claimsInMemory): one statement for the lookups arriving together. */
  readonly #lookups = new Batcher<ClaimInput, boolean>(
    async (cs) => {
      const r = await sql<{ scope: string; key: string }>`select t.s as scope, t.k as key
      from json_to_recordset(${JSON.stringify(cs.map((c) => ({ s: c.scope, k: c.key })))}::json) as t(s text, k text)
      cross join lateral (select 1 from idempotency_keys i where i.scope = t.s and i.key = t.k limit 1) i`.execute(this.db);
      const found = new Set(r.rows.map((x) => keyOf(x)));
      return cs.map((c) => found.has(keyOf(c)));
    },
    { maxBatch: 64, maxInFlight: 4 },
  );

  /** A key that has a row: a replay, another body's key, one in flight, or one to take (expired, abandoned). */
  async #claimHeld(c: ClaimInput): Promise<Claim> {
    const now = this.clock.now();
    return this.db.transaction().execute(async (tx) => {
      const held = await tx
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('scope', '=', c.scope)
        .where('key', '=', c.key)
        .forUpdate()
        .executeTakeFirst();
      const abandoned = held && held.state === 'in_flight' && held.lease_until <= now;
      if (!held || held.expires_at <= now || abandoned) {
        // Gone since the insert (released), expired and not yet purged, or its request died: take it. A
        // claim held in memory takes it by deleting the row: its answer's row is inserted (KeptAnswer.claimHeldInMemory).
        if (this.claimsInMemory) await tx.deleteFrom('idempotency_keys').where('scope', '=', c.scope).where('key', '=', c.key).execute();
        else {
          const row = this.#row(c, now);
          await tx
            .insertInto('idempotency_keys')
            .values(row)
            .onConflict((oc) => oc.columns(['scope', 'key']).doUpdateSet({ ...row }))
            .execute();
        }
        return { kind: 'claimed' } as const;
      }
      if (held.fingerprint !== c.fingerprint) return { kind: 'key_reused' } as const;
      if (held.state === 'in_flight') return { kind: 'in_progress' } as const;
      return { kind: 'replay', status: held.status!, response: held.response! } as const;
    });
  }

  /** The request that claimed the key has answered (its answer kept or the claim released): a claim in memory ends. */
  settled(c: { scope: string; key: string }): void {
    if (this.claimsInMemory) this.#held.delete(keyOf(c));
  }

  /**
   * When an answer kept now is kept and until when, for a key with no row yet (claimsInMemory), and
   * whether it has none (`claimHeldInMemory`: a claim held in memory, whose answer's row is inserted).
   */
  keptTimes(): { at: Date; expiresAt: Date; claimHeldInMemory?: true } {
    const at = this.clock.now();
    return { at, expiresAt: this.#expiry(at), ...(this.claimsInMemory ? { claimHeldInMemory: true as const } : {}) };
  }

  #row(c: ClaimInput, now: Date) {
    return {
      ...c,
      state: 'in_flight',
      lease_until: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS),
      status: null,
      response: null,
      created_at: now,
      expires_at: this.#expiry(now),
    };
  }

  /**
   * When a key claimed at `now` expires: the retention after the lease, the longest its request may
   * take. Set once by the claim and never moved by the answer, so keeping the answer changes no indexed
   * column and is a HOT update (migration 015); an answer given within the lease is still kept at least
   * the retention period after it was given.
   */
  #expiry(now: Date): Date {
    return new Date(now.getTime() + IDEMPOTENCY_RETENTION_MS + IDEMPOTENCY_LEASE_MS);
  }

  /**
   * Inserts the new keys of a batch in one statement; true for each that it claimed (the first of a key).
   * Its commit does not wait for the WAL to reach the disk (synchronous_commit off for this transaction
   * only): other requests see the claim at once, and what the claimed request then writes commits
   * durably after it, flushing the log through the claim too. A crash can lose a claim only together with
   * everything its request did, leaving the key free for a retry that runs once. That saves a disk flush,
   * the most of a keyed request's added latency on PostgreSQL (bench/README.md, Idempotency-Key).
   */
  readonly #claims = new Batcher<ClaimInput, boolean>(
    async (cs) => {
      const now = this.clock.now();
      const r = await sql<{
        scope: string;
        key: string;
      }>`insert into idempotency_keys (scope, key, fingerprint, state, lease_until, status, response, created_at, expires_at)
      select s, k, f, 'in_flight', ${new Date(now.getTime() + IDEMPOTENCY_LEASE_MS)}, null, null, ${now}, ${this.#expiry(now)}
      from json_to_recordset(${JSON.stringify(cs.map((c) => ({ s: c.scope, k: c.key, f: c.fingerprint })))}::json) as t(s text, k text, f text),
        (select set_config('synchronous_commit', 'off', true)) as async_commit
      on conflict (scope, key) do nothing returning scope, key`.execute(this.db);
      const won = new Set(r.rows.map((x) => keyOf(x)));
      // Two requests of one batch with one key: the first claimed it, the other meets it in flight.
      return cs.map((c) => won.delete(keyOf(c)));
    },
    { maxBatch: 64, maxInFlight: 4 },
  );

  /** Keeps the answer (IdempotencyClaim.keep) of a request whose work did not keep it. */
  async complete(a: KeptAnswer): Promise<void> {
    await this.#completions.load(a);
  }

  readonly #completions = new Batcher<KeptAnswer, void>(
    async (as) => {
      await keepAnswersSql(as).execute(this.db);
      return as.map(() => undefined);
    },
    { maxBatch: 64, maxInFlight: 4 },
  );

  /** Forgets a claim whose request decided nothing, so the same key may run again. */
  async release(c: { scope: string; key: string }): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('scope', '=', c.scope)
      .where('key', '=', c.key)
      .where('state', '=', 'in_flight')
      .execute();
  }

  /** Deletes keys past their retention (an abandoned claim too), at most `limit` at a time; returns how many. */
  async purgeExpired(limit = 1000): Promise<number> {
    const now = this.clock.now();
    // Claims in memory whose request never answered (it was lost before its reply): their lease lapsed.
    for (const [id, lapses] of this.#held) if (lapses <= now.getTime()) this.#held.delete(id);
    const r = await sql`delete from idempotency_keys where ctid in (
      select ctid from idempotency_keys where expires_at <= ${now} and lease_until <= ${now} limit ${limit})`.execute(this.db);
    return Number(r.numAffectedRows ?? 0n);
  }
}
