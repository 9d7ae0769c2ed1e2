import { sql } from 'kysely';
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_RETENTION_MS } from '../domain/idempotency/retention.ts';
import type { Clock } from '../domain/ports.ts';
import { keepAnswersSql, keyOf, type KeptAnswer } from './answers-in-work.ts';
import { Batcher } from './batcher.ts';
import type { Db } from './db.ts';

/** What a request carrying an Idempotency-Key meets (CONTRACT §10). */
export type Claim =
  | { kind: 'claimed'; leaseUntil: Date }
  | { kind: 'in_progress' }
  | { kind: 'key_reused' }
  | { kind: 'replay'; status: number; response: string };

export interface ClaimInput {
  scope: string;
  key: string;
  fingerprint: string;
}

export { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_RETENTION_MS };

/**
 * Idempotency keys: claimed in their own short transaction before the request runs, completed with the
 * answer after it, released when the answer says nothing was decided (so a retry runs again); or, for a
 * route whose work keeps its answer (quotes, orders, withdrawals), claimed by the work's own statement,
 * with holdInFlight saying "in flight" until then. A claim whose request died (a crash) is abandoned after
 * IDEMPOTENCY_LEASE_MS and may be taken by the next request.
 */
export class IdempotencyStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** The keys whose requests run in this process with their work still to claim them (holdInFlight), with their fingerprints. */
  readonly #inFlightHere = new Map<string, string>();

  /**
   * Marks a key in flight in this process while its request's work, which claims the key in its own
   * statement or transaction (answers-in-work.ts), is still to run, and returns the release, called once
   * the request is answered or abandoned (any number of times; the first counts). When a request of this
   * process holds the key already: `in_progress` (409), or `key_reused` (422) for another body. The row
   * the work writes is the claim; this says "in flight" before the row exists. Across instances of
   * PostgreSQL the work's advisory lock says it; where one connection runs one transaction at a time
   * (PGlite), a second request's work would otherwise wait for the first one's to commit and replay it,
   * where the contract answers 409 while the first runs.
   */
  holdInFlight(c: ClaimInput): (() => void) | 'in_progress' | 'key_reused' {
    const id = keyOf(c);
    const held = this.#inFlightHere.get(id);
    if (held !== undefined) return held === c.fingerprint ? 'in_progress' : 'key_reused';
    this.#inFlightHere.set(id, c.fingerprint);
    let holding = true;
    return () => {
      if (holding) this.#inFlightHere.delete(id);
      holding = false;
    };
  }

  async claim(c: ClaimInput): Promise<Claim> {
    // The common case is a new key: claims arriving together share one statement.
    const leaseUntil = await this.#claims.load(c);
    if (leaseUntil) return { kind: 'claimed', leaseUntil };
    return this.#claimHeld(c);
  }

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
        // Gone since the insert (released), expired and not yet purged, or its request died: take it.
        const row = this.#row(c, now);
        await tx
          .insertInto('idempotency_keys')
          .values(row)
          .onConflict((oc) => oc.columns(['scope', 'key']).doUpdateSet({ ...row }))
          .execute();
        return { kind: 'claimed', leaseUntil: row.lease_until } as const;
      }
      if (held.fingerprint !== c.fingerprint) return { kind: 'key_reused' } as const;
      if (held.state === 'in_flight') return { kind: 'in_progress' } as const;
      return { kind: 'replay', status: held.status!, response: held.response! } as const;
    });
  }

  /** When an answer kept now is kept, and until when its key is kept (the claim's expiry, #expiry). */
  keptTimes(): { at: Date; expiresAt: Date } {
    const at = this.clock.now();
    return { at, expiresAt: this.#expiry(at) };
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
   * Inserts the new keys of a batch in one statement; for each that it claimed (the first of a key), the
   * lease its claim set, which names the claim (KeptAnswer.claimedUntil); null for the others.
   * Its commit does not wait for the WAL to reach the disk (synchronous_commit off for this transaction
   * only): other requests see the claim at once, and what the claimed request then writes commits
   * durably after it, flushing the log through the claim too. A crash can lose a claim only together with
   * everything its request did, leaving the key free for a retry that runs once. That saves a disk flush,
   * the most of a keyed request's added latency on PostgreSQL (bench/README.md, Idempotency-Key).
   */
  readonly #claims = new Batcher<ClaimInput, Date | null>(
    async (cs) => {
      const now = this.clock.now();
      const leaseUntil = new Date(now.getTime() + IDEMPOTENCY_LEASE_MS);
      const r = await sql<{
        scope: string;
        key: string;
      }>`insert into idempotency_keys (scope, key, fingerprint, state, lease_until, status, response, created_at, expires_at)
      select s, k, f, 'in_flight', ${leaseUntil}, null, null, ${now}, ${this.#expiry(now)}
      from json_to_recordset(${JSON.stringify(cs.map((c) => ({ s: c.scope, k: c.key, f: c.fingerprint })))}::json) as t(s text, k text, f text),
        (select set_config('synchronous_commit', 'off', true)) as async_commit
      on conflict (scope, key) do nothing returning scope, key`.execute(this.db);
      const won = new Set(r.rows.map((x) => keyOf(x)));
      // Two requests of one batch with one key: the first claimed it, the other meets it in flight.
      return cs.map((c) => (won.delete(keyOf(c)) ? leaseUntil : null));
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
    const r = await sql`delete from idempotency_keys where ctid in (
      select ctid from idempotency_keys where expires_at <= ${now} and lease_until <= ${now} limit ${limit})`.execute(this.db);
    return Number(r.numAffectedRows ?? 0n);
  }
}
