import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * A value sealed at rest under the server secret, bound to where it is stored: AES-256-GCM with a fresh
 * 96-bit IV, the key derived by HKDF-SHA256 (salt `cambio`, `info` naming what it seals), and the
 * associated data naming the row (a value copied to another row does not open). Stored as
 * `<format><base64 of iv ‖ tag ‖ ciphertext>`. Used by the TOTP (people/seal.ts), Idempotency-Key answer
 * (idempotency/answer-sealer.ts) and webhook secret (webhooks/secret.ts) sealers.
 */
export class SealedBox {
  readonly #key: Buffer;
  constructor(
    secret: string,
    info: string,
    private readonly format: string,
  ) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'cambio', info, 32));
  }

  seal(plain: string, aad: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.#key, iv);
    c.setAAD(Buffer.from(aad));
    const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return `${this.format}${Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64')}`;
  }

  /** Throws when not of this format, altered, sealed under another secret or for another row. */
  open(sealed: string, aad: string): string {
    if (!sealed.startsWith(this.format)) throw new Error(`sealed value: not of the format ${this.format}`);
    const raw = Buffer.from(sealed.slice(this.format.length), 'base64');
    const d = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, 12));
    d.setAAD(Buffer.from(aad));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  }
}
