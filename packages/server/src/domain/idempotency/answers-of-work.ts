/**
 * An Idempotency-Key's answer kept by the work it answers (CONTRACT §10), and the bookkeeping of one piece
 * of work's answers: which requests' answers it kept, and which keys it could not claim. Plain data and
 * rules: the store writes the answers in the work's own statement or transaction.
 */

/** An Idempotency-Key's answer as it is kept (CONTRACT §10): sealed, or a reference to the record the work wrote. */
export interface KeptAnswer {
  scope: string;
  key: string;
  fingerprint: string;
  status: number;
  response: string;
  /** When it is kept, and until when its key is kept (a key the work claims has no row before it). */
  at: Date;
  expiresAt: Date;
  /**
   * The id of the record the work writes, for an answer kept by reference (domain/idempotency/answer-ref.ts):
   * keepAnswersSql then keeps it only if the work wrote that record (`written`).
   */
  work?: string;
  /**
   * The lease the key's claim set, when it was claimed before the work (IdempotencyStore.claim): it names
   * that claim, and the answer is kept only on it. A claim whose lease lapsed and that another request took
   * over has another lease, and its answer is that request's to keep; the work that finds its own answer
   * unkept aborts (the key's work is not done twice).
   */
  claimedUntil?: Date;
  /** The key is claimed by the work's own statement (claimKeysAsWrittenCtes), not before the work (route config `claimInWork`). */
  claimInWork?: boolean;
}
/**
 * The answer of a request that carries an Idempotency-Key, kept by the request's own work in the work's
 * own statement or transaction: a keyed call then commits once, and a crash can never leave work done
 * with its answer unkept (a retry after the claim's lease would run it again). A refusal keeps nothing
 * here: the work wrote nothing, and the answer is kept after it is sent.
 */
export interface AnswerInWork<T> {
  /** The answer to keep for this result; asked inside the work's transaction, before it commits. */
  answer(result: T): KeptAnswer;
  /** Told after the work committed with its answer kept. */
  kept(): void;
  /**
   * Told after the work committed without writing this result, because its key, to be claimed by the
   * work (KeptAnswer.claimInWork), was not: `busy`, another statement was claiming it at that moment;
   * otherwise the key has a row the route must read (a replay, another body's key, a claim in flight).
   */
  unclaimed?(busy: boolean): void;
}

/** One Idempotency-Key, scope and key, as one string (a Map's or a Set's key). */
export const keyOf = (k: { scope: string; key: string }) => JSON.stringify([k.scope, k.key]);

/**
 * The answers one piece of work keeps: each keyed result's answer, asked inside the work's transaction,
 * and, once the work committed, each request whose claim the work answered is told so.
 */
export class AnswersOfWork {
  readonly #pending: Array<{ answer: KeptAnswer; keep: AnswerInWork<never> }> = [];
  /** What each request is told once the work committed: kept, or unclaimed (busy or not). */
  readonly #told: Array<{ keep: AnswerInWork<never>; unclaimed?: { busy: boolean } }> = [];

  /** The answer of `result` when its request carries a key (`keep`); nothing without one. */
  add<T>(keep: AnswerInWork<T> | undefined, result: T): void {
    if (keep) this.#pending.push({ answer: keep.answer(result), keep });
  }

  get answers(): KeptAnswer[] {
    return this.#pending.map((p) => p.answer);
  }

  /**
   * The rows the work's own statement returned for the keys it answered: keepAnswersSql's (each one
   * kept) or claimedKeyOutcomes' and claimableKeyOutcomes' (`kept`, or not, and why). A key claimed in the work that another answer of
   * the same batch already took is busy.
   */
  answered(rows: Array<{ scope: string; key: string; kept?: boolean; busy?: boolean; open?: boolean }>): void {
    const outcome = new Map(rows.map((x) => [keyOf(x), x]));
    const seen = new Set<string>();
    for (const p of this.#pending) {
      const id = keyOf(p.answer);
      const o = seen.has(id) ? undefined : outcome.get(id);
      seen.add(id);
      if (o && o.kept !== false) this.#told.push({ keep: p.keep });
      // Free, and its work refused (claimableKeysCtes): the request claims the key with its refusal; nothing to tell.
      else if (o?.open) continue;
      else if (p.answer.claimInWork) this.#told.push({ keep: p.keep, unclaimed: { busy: o?.busy !== false } });
    }
  }

  /** After the work committed: its requests send the answers it kept, and keep nothing more. */
  tell(): void {
    for (const t of this.#told) {
      if (t.unclaimed) t.keep.unclaimed?.(t.unclaimed.busy);
      else t.keep.kept();
    }
  }
}
