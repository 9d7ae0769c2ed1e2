import { randomBytes } from 'node:crypto';
import { SealedBox } from '../sealed-box.ts';

/** A Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes (the HMAC key). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Webhook signing secrets at rest. They must be opened to sign, so they are encrypted, never hashed
 * (domain/sealed-box.ts, info `webhooks/secret`), bound to the endpoint: the associated data names the
 * organization and the endpoint, so a value copied to another row does not open. Stored as `w1.…`.
 */
export class WebhookSecretSealer {
  readonly #box: SealedBox;
  constructor(secret: string) {
    this.#box = new SealedBox(secret, 'webhooks/secret', 'w1.');
  }
  seal(plain: string, row: { organizationId: string; endpointId: string }): string {
    return this.#box.seal(plain, aad(row));
  }
  /** Throws when altered, sealed under another server secret or for another endpoint. */
  open(sealed: string, row: { organizationId: string; endpointId: string }): string {
    return this.#box.open(sealed, aad(row));
  }
}

const aad = (r: { organizationId: string; endpointId: string }) => `cambio/webhook-secret/v1|${r.organizationId}|${r.endpointId}`;
