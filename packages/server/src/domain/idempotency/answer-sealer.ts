import { SealedBox } from '../sealed-box.ts';

/**
 * The answers kept for Idempotency-Key replays, sealed at rest: some carry a secret shown once (an API
 * key, a staff token, an invitation's url, a TOTP secret, recovery codes), and the store must never hold
 * one readable. domain/sealed-box.ts (info `idempotency/answers`), bound to its scope and key (associated
 * data), so an answer copied to another key does not open. Stored as `a1.…`.
 */
const FORMAT = 'a1.';

export class AnswerSealer {
  readonly #box: SealedBox;
  constructor(secret: string) {
    this.#box = new SealedBox(secret, 'idempotency/answers', FORMAT);
  }
  seal(answer: string, at: { scope: string; key: string }): string {
    return this.#box.seal(answer, aad(at));
  }
  /** Opens a sealed answer; an answer kept before answers were sealed (plain JSON) is returned as it is. Throws when altered. */
  open(stored: string, at: { scope: string; key: string }): string {
    return stored.startsWith(FORMAT) ? this.#box.open(stored, aad(at)) : stored;
  }
}

const aad = (at: { scope: string; key: string }) => `cambio/idempotency/v1|${at.scope}|${at.key}`;
