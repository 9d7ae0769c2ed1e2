import type { FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The service's origin as configured (CAMBIO_PUBLIC_URL) or bound, and whether it was configured. */
export interface OwnOrigin {
  publicUrl: string;
  publicUrlSet: boolean;
}

/**
 * A write authenticated by a cookie must come from the service's own pages: its `Origin` (or, when
 * absent, its `Referer`) must be the service's origin, scheme, host and port alike. That is
 * CAMBIO_PUBLIC_URL when set (and nothing else: behind a TLS proxy the plain-http form of the same host
 * is another origin); unset, the address bound or the request's own Host under the scheme this server
 * itself serves. Otherwise 403 auth.cross_origin, before anything runs. SameSite=Strict already keeps
 * the cookie off cross-site requests; this also refuses same-site ones from another origin.
 */
export function assertSameOrigin(req: FastifyRequest, own: OwnOrigin): void {
  if (!WRITES.has(req.method)) return;
  const origin = req.headers.origin;
  let from: string | null = null;
  // Compared as serialized origins (`http://h:80` is `http://h`): only an exact scheme, host and port match.
  if (typeof origin === 'string' && origin !== 'null') {
    try {
      from = new URL(origin).origin;
    } catch {
      from = null;
    }
  } else if (typeof req.headers.referer === 'string') {
    try {
      from = new URL(req.headers.referer).origin;
    } catch {
      from = null;
    }
  }
  if (from !== null) {
    if (from === own.publicUrl) return;
    if (!own.publicUrlSet && from === servedOrigin(req)) return;
  }
  throw new DomainError('auth.cross_origin');
}

/** `<scheme>://<Host>` as this server serves the request (no proxy is trusted: http unless the socket is TLS). */
function servedOrigin(req: FastifyRequest): string | null {
  const host = req.headers.host;
  if (typeof host !== 'string' || host === '') return null;
  try {
    return new URL(`${req.protocol}://${host}`).origin;
  } catch {
    return null;
  }
}

/**
 * Sign-in and accepting an invitation carry no cookie to protect yet, but a form on another site must not
 * sign a browser in either: a foreign Origin (or Referer) is refused; none at all (a program) is allowed.
 */
export function assertForeignOriginAbsent(req: FastifyRequest, own: OwnOrigin): void {
  if (req.headers.origin === undefined && req.headers.referer === undefined) return;
  assertSameOrigin(req, own);
}
