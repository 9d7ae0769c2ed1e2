import { createHmac } from 'node:crypto';

/**
 * The Standard Webhooks headers of one attempt (docs/api-guide.md): `v1,` + base64 HMAC-SHA256 of
 * `id.timestamp.body` under the secret's bytes (the base64 after `whsec_`), exactly as the maintained
 * `standardwebhooks` package signs and verifies (sign.test.ts holds the two together). The HMAC is
 * node:crypto's, not the package's JavaScript SHA-256: every attempt is signed, so its cost is paid per
 * delivery. During a rotation's overlap `secrets` holds the new secret and the previous one, and the
 * header carries both signatures, space-separated, so a receiver holding either verifies.
 */
export function webhookHeaders(secrets: readonly string[], id: string, at: Date, body: string): Record<string, string> {
  const timestamp = String(Math.trunc(at.getTime() / 1000));
  const signatures = secrets.map(
    (s) => `v1,${createHmac('sha256', secretKey(s)).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`,
  );
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}

/** The HMAC key of a `whsec_…` secret: the bytes its base64 stands for (decoded once per secret). */
function secretKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
    if (keys.size >= MAX_KEYS) keys.clear();
    keys.set(secret, key);
  }
  return key;
}
const PREFIX = 'whsec_';
const keys = new Map<string, Buffer>();
/** Secrets whose decoded keys are kept: many more than the endpoints one process sends to at once. */
const MAX_KEYS = 4096;
