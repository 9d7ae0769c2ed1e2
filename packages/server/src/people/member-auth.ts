import type { FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.ts';
import { hashOpaque } from '../domain/people/tokens.ts';
import type { Organization } from '../domain/organizations/organization.ts';
import type { Clock } from '../domain/ports.ts';
import type { Store } from '../store/index.ts';
import type { Member } from '../store/organizations-store.ts';
import { touchSession } from '../usecases/people/sessions.ts';
import { MEMBER_COOKIE, readCookie } from './cookies.ts';
import { assertSameOrigin } from './origin.ts';

export interface MemberContext {
  member: Member;
  organization: Organization;
  totpEnrolled: boolean;
  reconciled: boolean;
  /** The cookie's value (the session id), for rotation and sign-out. */
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in member of a cookie-authenticated request. */
    member?: MemberContext;
  }
}

/**
 * A member's session from the `cambio_member` cookie: null when the request has none; 401 when it is
 * unknown, ended, idle too long or past its absolute expiry, or its member is no longer active. A write
 * must come from the service's own origin (403 auth.cross_origin) before anything else happens.
 */
export async function memberFromCookie(
  deps: { store: Store; clock: Clock; secret: string; config: { publicUrl: string; publicUrlSet: boolean; sessionIdleMs: number } },
  req: FastifyRequest,
): Promise<MemberContext | null> {
  const raw = req.headers.cookie;
  if (raw === undefined || !raw.includes(MEMBER_COOKIE)) return null;
  const sessionId = readCookie(raw, MEMBER_COOKIE);
  if (!sessionId) throw new DomainError('auth.unauthenticated');
  const idHash = hashOpaque(deps.secret, 'session', sessionId);
  const s = await deps.store.people.memberSession(idHash);
  const now = deps.store.clock.now().getTime();
  if (!s || s.session.expiresAt.getTime() <= now || s.session.lastSeenAt.getTime() + deps.config.sessionIdleMs <= now)
    throw new DomainError('auth.unauthenticated');
  assertSameOrigin(req, deps.config);
  // The last use moves forward at most every minute (or a quarter of the idle time, when shorter).
  if (now - s.session.lastSeenAt.getTime() > Math.min(60_000, deps.config.sessionIdleMs / 4)) await touchSession(deps, idHash);
  return { member: s.member, organization: s.organization, totpEnrolled: s.totpEnrolled, reconciled: s.reconciled, sessionId };
}
