import type { FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A write authenticated by a cookie must come from the service's own pages: its `Origin` (or, when
 * absent, its `Referer`) must be the service's origin (CAMBIO_PUBLIC_URL) or the request's own Host.
 * Otherwise 403 auth.cross_origin, before anything runs. SameSite=Strict already keeps the cookie off
 * cross-site requests; this also refuses same-site ones from another origin.
 */
export function assertSameOrigin(req: FastifyRequest, publicUrl: string): void {
  if (!WRITES.has(req.method)) return;
  const origin = req.headers.origin;
  let from: string | null = null;
  if (typeof origin === 'string' && origin !== 'null') from = origin;
  else if (typeof req.headers.referer === 'string') {
    try { from = new URL(req.headers.referer).origin; } catch { from = null; }
  }
  if (from !== null) {
    const host = req.headers.host;
    if (from === publicUrl) return;
    if (typeof host === 'string' && (from === `http://${host}` || from === `https://${host}`)) return;
  }
  throw new DomainError('auth.cross_origin');
}

/**
 * Sign-in and accepting an invitation carry no cookie to protect yet, but a form on another site must not
 * sign a browser in either: a foreign Origin (or Referer) is refused; none at all (a program) is allowed.
 */
export function assertForeignOriginAbsent(req: FastifyRequest, publicUrl: string): void {
  if (req.headers.origin === undefined && req.headers.referer === undefined) return;
  assertSameOrigin(req, publicUrl);
}
