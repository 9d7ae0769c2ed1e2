import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Approver } from '../../domain/approvals/four-eyes.ts';
import { DomainError } from '../../domain/errors.ts';
import { DUMMY_HASH, sameHash } from '../../domain/keys/api-key.ts';
import { hashOpaque, parseStaffToken } from '../../domain/people/tokens.ts';
import { readCookie, STAFF_COOKIE } from '../../people/cookies.ts';
import { assertSameOrigin } from '../../people/origin.ts';
import type { Clock } from '../../domain/ports.ts';
import type { Store } from '../../store/index.ts';
import type { Staff, StaffRole } from '../../store/staff-store.ts';
import { touchSession } from '../../usecases/people/sessions.ts';
import { touchStaffToken } from '../../usecases/staff/staff-tokens.ts';
import { AUDITOR_WRITES, DECISION_ROUTES, requiredRole, STAFF_SELF_SERVICE } from './operator-roles.ts';

export const hashOperatorToken = (token: string) => createHash('sha256').update(token).digest('hex');

const PREFIX = '/operator/v1';
const RANK: Record<StaffRole, number> = { auditor: 0, viewer: 0, approver: 1, admin: 2 };

export interface OperatorAuthDeps {
  store: Store;
  clock: Clock;
  secret: string;
  operatorTokenHash: string;
  config: { publicUrl: string; publicUrlSet: boolean; sessionIdleMs: number; mode: 'sandbox' | 'production' };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The staff session id of a cookie-authenticated operator request (sign-out, password change). */
    staffSessionId?: string;
  }
}

/**
 * /operator/v1 credentials (docs/design/people-and-apps.md): a staff person's session cookie (`cambio_staff`), a staff
 * person's own token (`Bearer ops_…`), or the bootstrap OPERATOR_TOKEN (admin, audited as `bootstrap`).
 * Then, centrally, the role each route needs (operator-roles.ts) and, for a person without TOTP, no
 * write but enrolling it. Sets `req.staff` (typed) and `req.operatorActor` (the audit trail's actor).
 */
export function operatorAuth(deps: OperatorAuthDeps) {
  return async function authenticateOperator(req: FastifyRequest) {
    if (req.routeOptions.config?.public) return;
    const who = await authenticate(deps, req);
    const route = `${req.method} ${(req.routeOptions.url ?? req.url).slice(PREFIX.length)}`;
    if (who.kind === 'bootstrap') {
      req.staff = { kind: 'bootstrap' };
      req.operatorActor = bootstrapActor(req.headers['x-operator']);
      // Production: the token bypasses people (no TOTP, a name it declares itself), so it decides nothing.
      if (deps.config.mode === 'production' && DECISION_ROUTES.has(route)) throw new DomainError('auth.bootstrap_cannot_decide');
      return;
    }
    const s = who.staff;
    req.staff = { kind: 'staff', id: s.id, name: s.name, email: s.email, role: s.role };
    req.operatorActor = `staff:${s.id}`;
    const needed = requiredRole(route);
    if (RANK[s.role] < RANK[needed]) throw new DomainError('auth.role_missing', { role: s.role, needed });
    // An auditor reads everything and writes nothing but their own password, TOTP and tokens (docs/operator-guide.md).
    if (s.role === 'auditor' && req.method !== 'GET' && !AUDITOR_WRITES.has(route))
      throw new DomainError('auth.role_missing', { role: s.role, needed });
    if (!who.totpEnrolled && req.method !== 'GET' && !STAFF_SELF_SERVICE.has(route)) throw new DomainError('auth.totp_required');
  };
}

type Who = { kind: 'bootstrap' } | { kind: 'staff'; staff: Staff; totpEnrolled: boolean };

async function authenticate(deps: OperatorAuthDeps, req: FastifyRequest): Promise<Who> {
  const a = req.headers.authorization;
  const bearer = typeof a === 'string' && /^Bearer /i.test(a) ? a.slice(7).trim() : undefined;
  if (bearer !== undefined && bearer.startsWith('ops_')) return staffToken(deps, bearer);
  if (bearer !== undefined || req.headers.cookie === undefined || !req.headers.cookie.includes(STAFF_COOKIE)) {
    const got = Buffer.from(hashOperatorToken(bearer ?? ''), 'hex');
    const want = Buffer.from(deps.operatorTokenHash, 'hex');
    if (got.length !== want.length || !timingSafeEqual(got, want)) throw new DomainError('auth.unauthenticated');
    return { kind: 'bootstrap' };
  }
  const sessionId = readCookie(req.headers.cookie, STAFF_COOKIE);
  if (!sessionId) throw new DomainError('auth.unauthenticated');
  const idHash = hashOpaque(deps.secret, 'session', sessionId);
  const s = await deps.store.people.staffSession(idHash);
  const now = deps.store.clock.now().getTime();
  if (!s || s.session.expiresAt.getTime() <= now || s.session.lastSeenAt.getTime() + deps.config.sessionIdleMs <= now)
    throw new DomainError('auth.unauthenticated');
  assertSameOrigin(req, deps.config);
  if (now - s.session.lastSeenAt.getTime() > Math.min(60_000, deps.config.sessionIdleMs / 4)) await touchSession(deps, idHash);
  req.staffSessionId = sessionId;
  return { kind: 'staff', staff: s.staff, totpEnrolled: s.totpEnrolled };
}

/** `ops_<prefix>.<secret>`: the prefix finds it, the secret's keyed hash is compared in constant time (a dummy when unknown). */
async function staffToken(deps: OperatorAuthDeps, raw: string): Promise<Who> {
  const parsed = parseStaffToken(raw);
  const row = parsed ? await deps.store.staff.forToken(parsed.prefix) : null;
  const match = sameHash(hashOpaque(deps.secret, 'staff_token', parsed?.secret ?? ''), row?.secretHash ?? DUMMY_HASH);
  if (!row || !match || row.revoked || row.staff.status !== 'active') throw new DomainError('auth.unauthenticated');
  if (!row.lastUsedAt || deps.store.clock.now().getTime() - row.lastUsedAt.getTime() > 60_000) await touchStaffToken(deps, row.tokenId);
  return { kind: 'staff', staff: row.staff, totpEnrolled: row.totpEnrolled };
}

/**
 * The bootstrap token may name who holds it in `X-Operator` (recorded as `bootstrap:<name>`); a malformed
 * name is refused (400), never dropped. With a staff credential the header is not read.
 */
function bootstrapActor(who: string | string[] | undefined): string {
  if (who === undefined) return 'bootstrap';
  if (typeof who !== 'string' || !/^[\w .@-]{1,64}$/.test(who)) throw new DomainError('auth.operator_name_invalid');
  return `bootstrap:${who}`;
}

/** Who approves, for four-eyes: a staff person counts once; the bootstrap token is no person. */
export function approverOf(req: FastifyRequest): Approver {
  const s = req.staff;
  if (!s || !req.operatorActor) throw new Error('operator route reached without authentication');
  return { actor: req.operatorActor, person: s.kind === 'staff' ? { id: s.id, name: s.name, email: s.email, role: s.role } : null };
}
