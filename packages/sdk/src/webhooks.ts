import type { EventRecord } from '@cambio/contract';

/** An event as a webhook delivers it: the same JSON as `GET /api/v1/events` lists it. */
export type WebhookEvent = EventRecord;

/** Raised when a webhook is not authentic or too old: answer it with a 4xx and do not act on it. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** The request headers as a framework gives them: a fetch `Headers`, or a plain object (Node's `req.headers`). */
export type WebhookHeaders = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, either way (replayed or delayed messages). Default 300 s. */
  toleranceSeconds?: number;
  /** The current time in ms (tests). */
  now?: () => number;
}

const header = (h: WebhookHeaders, name: string): string | undefined => {
  if (typeof (h as { get?: unknown }).get === 'function') return (h as { get(n: string): string | null }).get(name) ?? undefined;
  const rec = h as Record<string, string | string[] | undefined>;
  const key = Object.keys(rec).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : rec[key];
  return Array.isArray(v) ? v[0] : v;
};

const base64ToBytes = (b64: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const bytesToBase64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));

/** Compares two strings in time that depends only on their lengths. */
function sameString(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Verifies a webhook from Cambio (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) and returns its event. `secret` is the endpoint's `whsec_…` secret; `body` is the
 * request body exactly as received (the raw text or bytes, never a re-serialized object). During a
 * secret rotation the signature header carries two signatures: either secret verifies. Throws
 * WebhookVerificationError when a header is missing, the timestamp is outside the tolerance, no
 * signature matches, or the body's event id is not the `webhook-id`. Web Crypto only: runs in Node ≥ 20
 * and in browsers and workers.
 */
export async function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature header');
  if (!/^[0-9]{1,12}$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
  const tolerance = options.toleranceSeconds ?? 300;
  const nowSeconds = Math.trunc((options.now ?? Date.now)() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) throw new WebhookVerificationError('webhook-timestamp is too old or too new');

  let key: Uint8Array<ArrayBuffer>;
  try {
    key = base64ToBytes(secret.startsWith('whsec_') ? secret.slice(6) : secret);
  } catch {
    throw new WebhookVerificationError('the secret is not a whsec_ base64 secret');
  }
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + bytes.length);
  signed.set(prefix);
  signed.set(bytes, prefix.length);
  const hmacKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = bytesToBase64(new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, signed)));

  const matches = signatures.split(' ').some((entry) => {
    const comma = entry.indexOf(',');
    return comma > 0 && entry.slice(0, comma) === 'v1' && sameString(entry.slice(comma + 1), expected);
  });
  if (!matches) throw new WebhookVerificationError('no signature matches this secret');

  let event: WebhookEvent;
  try {
    event = JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body)) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
  if (event === null || typeof event !== 'object' || event.id !== id)
    throw new WebhookVerificationError('the event id is not the webhook-id');
  return event;
}
