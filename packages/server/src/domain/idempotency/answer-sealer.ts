import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The answers kept for Idempotency-Key replays, sealed at rest: some carry a secret shown once (an API
 * key, a staff token, an invitation's url, a TOTP secret, recovery codes), and the store must never hold
 * one readable. AES-256-GCM under a key derived from the server secret (HKDF-SHA256, info
 * `idempotency/answers`), bound to its scope and key (associated data), so an answer copied to another
 * key does not open. Stored as `a1.<base64 of iv ‖ tag ‖ ciphertext>`.
 */
const FORMAT = 'a1.';

export class AnswerSealer {
  readonly #key: Buffer;
  constructor(secret: string) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'cambio', 'idempotency/answers', 32));
  }

  seal(answer: string, at: { scope: string; key: string }): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.#key, iv);
    c.setAAD(aad(at));
    const ct = Buffer.concat([c.update(answer, 'utf8'), c.final()]);
    return `${FORMAT}${Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64')}`;
  }

  /** Opens a sealed answer; an answer kept before answers were sealed (plain JSON) is returned as it is. Throws when altered. */
  open(stored: string, at: { scope: string; key: string }): string {
    if (!stored.startsWith(FORMAT)) return stored;
    const raw = Buffer.from(stored.slice(FORMAT.length), 'base64');
    const d = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, 12));
    d.setAAD(aad(at));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  }
}

const aad = (at: { scope: string; key: string }) => Buffer.from(`cambio/idempotency/v1|${at.scope}|${at.key}`);
