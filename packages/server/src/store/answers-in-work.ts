import { sql, type RawBuilder } from 'kysely';

/** An Idempotency-Key's answer as it is kept (CONTRACT §10): sealed, or a reference to the record the work wrote. */
export interface KeptAnswer {
  scope: string; key: string; fingerprint: string; status: number; response: string;
  /** When it is kept, and until when, for a key whose claim has no row (PGlite: claims in memory). */
  at: Date; expiresAt: Date;
  /**
   * The id of the record the work writes, for an answer kept by reference (domain/idempotency/answer-ref.ts):
   * keepAnswersSql then keeps it only if the work wrote that record (`written`).
   */
  work?: string;
}

/**
 * The answer of a request that carries a claimed Idempotency-Key, kept by the request's own work in
 * the work's own statement or transaction: a keyed call then commits once, and a crash can never
 * leave work done with its answer unkept (a retry after the claim's lease would run it again).
 * A refusal keeps nothing here: the work wrote nothing, and the answer is kept after it is sent.
 */
export interface AnswerInWork<T> {
  /** The answer to keep for this result; asked inside the work's transaction, before it commits. */
  answer(result: T): KeptAnswer;
  /** Told after the work committed with its answer kept. */
  kept(): void;
}

/**
 * Marks claimed keys done with their answers; returns the SQL of one statement that answers the scope and
 * key of each claim it answered. On PostgreSQL the claim is a row in flight, which this updates; it changes
 * no indexed column (`expires_at` was set by the claim, migration 015), so PostgreSQL updates the row in
 * place on its page (a HOT update): no new entry in the primary key or the expiry index. On PGlite a claim
 * is held in memory (idempotency-store.ts), and this inserts the answered row. A key whose row is no longer
 * in flight (its lease lapsed and another request took it and answered) is left as it is. The answers go
 * as one JSON parameter: on PGlite that costs a fraction of text arrays (serialized by PGlite's
 * JavaScript, parsed by its array_in). `written`: a query of the ids of the records the statement wrote, for
 * answers kept by reference (`work`); an answer whose record was not written is not kept.
 */
export const keepAnswersSql = (as: KeptAnswer[], written?: RawBuilder<unknown>) => sql<{ scope: string; key: string }>`insert into idempotency_keys as k
      (scope, key, fingerprint, state, lease_until, status, response, created_at, expires_at)
    select t.s, t.k, t.f, 'done', t.at, t.st, t.r, t.at, t.e
    from json_to_recordset(${JSON.stringify(oncePerKey(as).map((a) => ({ s: a.scope, k: a.key, f: a.fingerprint, st: a.status, r: a.response, at: a.at.toISOString(), e: a.expiresAt.toISOString(), ...(a.work === undefined ? {} : { w: a.work }) })))}::json)
      as t(s text, k text, f text, st int, r text, at timestamptz, e timestamptz, w text)
    ${written ? sql`where t.w in (${written})` : sql``}
    on conflict (scope, key) do update set state = 'done', status = excluded.status, response = excluded.response
      where k.state = 'in_flight'
    returning k.scope, k.key`;

/** One Idempotency-Key, scope and key, as one string (a Map's or a Set's key). */
export const keyOf = (k: { scope: string; key: string }) => JSON.stringify([k.scope, k.key]);

/** One answer per key (the first): a statement may not update one row twice. */
function oncePerKey(as: KeptAnswer[]): KeptAnswer[] {
  const seen = new Set<string>();
  return as.filter((a) => {
    const id = keyOf(a);
    return !seen.has(id) && Boolean(seen.add(id));
  });
}

/**
 * The answers one piece of work keeps: each keyed result's answer, asked inside the work's transaction,
 * and, once the work committed, each request whose claim the work answered is told so.
 */
export class AnswersOfWork {
  readonly #pending: Array<{ answer: KeptAnswer; tell: () => void }> = [];
  readonly #kept: Array<() => void> = [];

  /** The answer of `result` when its request carries a key (`keep`); nothing without one. */
  add<T>(keep: AnswerInWork<T> | undefined, result: T): void {
    if (keep) this.#pending.push({ answer: keep.answer(result), tell: () => keep.kept() });
  }

  get answers(): KeptAnswer[] { return this.#pending.map((p) => p.answer); }

  /** The rows keepAnswersSql returned, run by the work's own statement: the claims it answered. */
  answered(rows: { scope: string; key: string }[]): void {
    const done = new Set(rows.map((x) => keyOf(x)));
    for (const p of this.#pending) if (done.has(keyOf(p.answer))) this.#kept.push(p.tell);
  }

  /** After the work committed: its requests send the answers it kept, and keep nothing more. */
  tell(): void {
    for (const tell of this.#kept) tell();
  }
}
