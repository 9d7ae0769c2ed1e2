import { sql } from 'kysely';
import type { Db } from './db.ts';

/** An Idempotency-Key's answer, sealed, as it is kept (CONTRACT §10). */
export interface KeptAnswer { scope: string; key: string; status: number; response: string }

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
 * Marks claimed keys done with their answers; returns the SQL of one UPDATE that answers the scope and
 * key of each claim it answered. A claim that is no longer in flight (it was released, or its lease
 * lapsed and another request took it) is left as it is. It changes no indexed column (`expires_at` was
 * set by the claim, migration 015), so PostgreSQL updates the row in place on its page (a HOT update):
 * no new entry in the primary key or the expiry index. The answers go as one JSON parameter: on PGlite
 * that costs a fraction of four text arrays (serialized by PGlite's JavaScript, parsed by its array_in).
 */
export const keepAnswersSql = (as: KeptAnswer[]) => sql<{ scope: string; key: string }>`update idempotency_keys k
    set state = 'done', status = t.st, response = t.r
    from json_to_recordset(${JSON.stringify(as.map((a) => ({ s: a.scope, k: a.key, st: a.status, r: a.response })))}::json) as t(s text, k text, st int, r text)
    where k.scope = t.s and k.key = t.k and k.state = 'in_flight'
    returning k.scope, k.key`;

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
    const done = new Set(rows.map((x) => JSON.stringify([x.scope, x.key])));
    for (const p of this.#pending) if (done.has(JSON.stringify([p.answer.scope, p.answer.key]))) this.#kept.push(p.tell);
  }

  /** Keeps the answers by a statement of their own in `db`, the work's transaction. */
  async keepIn(db: Db): Promise<void> {
    if (this.#pending.length > 0) this.answered((await keepAnswersSql(this.answers).execute(db)).rows);
  }

  /** After the work committed: its requests send the answers it kept, and keep nothing more. */
  tell(): void {
    for (const tell of this.#kept) tell();
  }
}
