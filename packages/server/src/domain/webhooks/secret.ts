import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** A Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes (the HMAC key). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Webhook signing secrets at rest. They must be opened to sign, so they are encrypted, never hashed:
 * AES-256-GCM under a key derived from the server secret (HKDF-SHA256, info `webhooks/secret`), the
 * scheme of the TOTP secrets (domain/people/seal.ts), bound to the endpoint: the associated data names
 * the organization and the endpoint, so a value copied to another row does not open.
 * Stored as `w1.<base64 of iv ‖ tag ‖ ciphertext>`.
 */
export class WebhookSecretSealer {
  readonly #key: Buffer;
  constructor(secret: string) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'cambio', 'webhooks/secret', 32));
  }

  seal(plain: string, row: { organizationId: string; endpointId: string }): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.#key, iv);
    c.setAAD(aad(row));
    const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return `w1.${Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64')}`;
  }

  /** Throws when altered, sealed under another server secret or for another endpoint. */
  open(sealed: string, row: { organizationId: string; endpointId: string }): string {
    if (!sealed.startsWith('w1.')) throw new Error('sealed webhook secret: unknown format');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    const d = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, 12));
    d.setAAD(aad(row));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  }
}

const aad = (r: { organizationId: string; endpointId: string }) => Buffer.from(`cambio/webhook-secret/v1|${r.organizationId}|${r.endpointId}`);
