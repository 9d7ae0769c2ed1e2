import { CambioError, IdempotencyInProgressError } from './errors.ts';
import { newIdempotencyKey } from './http.ts';
import { stringifyJson } from './json.ts';
import { outcomeUnknown } from './retry.ts';

/** What a write takes besides its body: the caller's own Idempotency-Key (docs/api-guide.md). */
export interface WriteOptions {
  idempotencyKey?: string;
}

/**
 * One Idempotency-Key per action a person takes in an app (a confirmed click): the same key when the
 * person tries the same action again after an answer that never came (a timeout, a lost connection, a
 * 5xx, or the first attempt still running), so the server acts once; a fresh key once the action got a
 * definite answer (done, or refused) or when what it sends changed.
 */
export class ActionKey {
  #current: { key: string; content: string } | null = null;

  /** `prefix` names the app in the server's records, e.g. `portal-` or `desk-`. */
  constructor(private readonly prefix = '') {}

  /** Runs `act` with the key of this action's `content` (its body, or whatever makes it this action). */
  async run<T>(content: unknown, act: (idempotencyKey: string) => Promise<T>): Promise<T> {
    const text = stringifyJson(content ?? null);
    if (this.#current?.content !== text) this.#current = { key: `${this.prefix}${newIdempotencyKey()}`, content: text };
    const { key } = this.#current;
    try {
      const r = await act(key);
      this.#current = null;
      return r;
    } catch (e) {
      const unknown = e instanceof IdempotencyInProgressError || (e instanceof CambioError && outcomeUnknown(e));
      if (!unknown) this.#current = null;
      throw e;
    }
  }
}

/** The part of a request spec that carries the caller's key, when there is one. */
export const keyOf = (opts: WriteOptions): { idempotencyKey?: string } =>
  opts.idempotencyKey !== undefined ? { idempotencyKey: opts.idempotencyKey } : {};
