import { Webhook } from 'standardwebhooks';

/**
 * The Standard Webhooks headers of one attempt (CONTRACT §10), signed by the maintained `standardwebhooks`
 * package: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes. During a rotation's
 * overlap `secrets` holds the new secret and the previous one, and the header carries both signatures,
 * space-separated, so a receiver holding either verifies.
 */
export function webhookHeaders(secrets: readonly string[], id: string, at: Date, body: string): Record<string, string> {
  const signatures = secrets.map((s) => new Webhook(s).sign(id, at, body));
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.trunc(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
