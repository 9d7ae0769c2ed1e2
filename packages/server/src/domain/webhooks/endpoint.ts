/** A webhook endpoint as the service reads it; the secrets stay sealed in the store. */
export interface WebhookEndpoint {
  id: string;
  organizationId: string;
  url: string;
  /** The event types sent; null: every type. */
  types: string[] | null;
  status: 'enabled' | 'disabled';
  /** The first failure since the last success; null while it succeeds. */
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  /** A rotation's overlap: until then the previous secret signs too. */
  previousSecretUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export const MAX_ENDPOINTS_PER_ORGANIZATION = 16;

/**
 * Why a url cannot be an endpoint (null: it can). http or https, a host, no user or password, no
 * fragment; at most 2048 characters.
 */
export function urlProblem(raw: string): string | null {
  if (raw.length > 2048) return 'at most 2048 characters';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(raw)) return 'no spaces or control characters';
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'not an absolute URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'http or https only';
  if (!u.hostname) return 'no host';
  if (u.username || u.password) return 'no user or password in the URL';
  if (u.hash) return 'no fragment';
  return null;
}

/** The URL's host as a resolver takes it: IPv6 literals without their brackets. */
export const hostOf = (url: string): string => new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');

/** The endpoint as the API shows it (and as the `webhook.disabled` event carries it); never a secret. */
export function endpointView(e: WebhookEndpoint) {
  return {
    id: e.id,
    url: e.url,
    types: e.types,
    status: e.status,
    failingSince: e.failingSince?.toISOString() ?? null,
    disabledAt: e.disabledAt?.toISOString() ?? null,
    disabledReason: e.disabledReason,
    previousSecretUntil: e.previousSecretUntil?.toISOString() ?? null,
    createdAt: e.createdAt.toISOString(),
  };
}
export type EndpointView = ReturnType<typeof endpointView>;
