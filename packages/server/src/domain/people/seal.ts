import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * TOTP secrets at rest: AES-256-GCM under a key derived from the server secret (HKDF-SHA256, info
 * `people/totp`), the same scheme as the destination sealer (domain/destinations/sealer.ts), bound to its
 * row: the associated data names the person and the column, so a value copied elsewhere does not open.
 * Stored as `t1.<base64 of iv ‖ tag ‖ ciphertext>`.
 */
export class TotpSealer {
  readonly #key: Buffer;
  constructor(secret: string) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'cambio', 'people/totp', 32));
  }

  seal(plain: string, row: { kind: string; id: string; field: 'secret' | 'pending' }): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.#key, iv);
    c.setAAD(aad(row));
    const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return `t1.${Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64')}`;
  }

  /** Throws when altered, sealed under another secret or for another row. */
  open(sealed: string, row: { kind: string; id: string; field: 'secret' | 'pending' }): string {
    if (!sealed.startsWith('t1.')) throw new Error('sealed TOTP secret: unknown format');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    const d = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, 12));
    d.setAAD(aad(row));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  }
}

const aad = (r: { kind: string; id: string; field: string }) => Buffer.from(`cambio/totp/v1|${r.kind}|${r.id}|${r.field}`);
