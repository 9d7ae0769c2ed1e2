import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Protects what identifies a bank account. The account number and the holder document are encrypted
 * at rest (AES-256-GCM, a fresh 96-bit IV per value, the tag authenticates it); duplicates are found by
 * a keyed fingerprint, so the database never needs the plain number to answer "already registered".
 * Both keys are derived from the server secret with HKDF, one per purpose.
 */
export class DestinationSealer {
  readonly #encKey: Buffer;
  readonly #macKey: Buffer;

  constructor(secret: string) {
    this.#encKey = Buffer.from(hkdfSync('sha256', secret, 'cambio', 'withdrawal-destinations/encryption', 32));
    this.#macKey = Buffer.from(hkdfSync('sha256', secret, 'cambio', 'withdrawal-destinations/fingerprint', 32));
  }

  /** `v1.<base64 of iv ‖ tag ‖ ciphertext>`. */
  seal(plain: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.#encKey, iv);
    const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return `${VERSION}.${Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64')}`;
  }

  /** Throws when the value was altered or sealed under another secret. */
  open(sealed: string): string {
    const [v, b64] = sealed.split('.', 2);
    if (v !== VERSION || !b64) throw new Error('unknown sealed format');
    const raw = Buffer.from(b64, 'base64');
    const d = createDecipheriv('aes-256-gcm', this.#encKey, raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  }

  /** Same bank and account number (normalized) → same fingerprint, for one server secret. */
  fingerprint(bankNameKey: string, accountNumberKey: string): string {
    return createHmac('sha256', this.#macKey).update(`${bankNameKey}|${accountNumberKey}`).digest('hex');
  }
}
