import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Approver } from '../../domain/approvals/four-eyes.ts';
import { DomainError } from '../../domain/errors.ts';

export const hashOperatorToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** `Authorization: Bearer <OPERATOR_TOKEN>`, compared as hashes in constant time. */
export function operatorAuth(tokenHash: () => string) {
  return async function authenticateOperator(req: FastifyRequest) {
    if (req.routeOptions.config?.public) return;
    const a = req.headers.authorization;
    const token = typeof a === 'string' && /^Bearer /i.test(a) ? a.slice(7).trim() : '';
    const got = Buffer.from(hashOperatorToken(token), 'hex');
    const want = Buffer.from(tokenHash(), 'hex');
    if (got.length !== want.length || !timingSafeEqual(got, want)) throw new DomainError('auth.unauthenticated');
    req.staff = { kind: 'bootstrap' };
    req.operatorActor = bootstrapActor(req.headers['x-operator']);
  };
}

/**
 * The bootstrap token may name who holds it in `X-Operator` (recorded as `bootstrap:<name>`); a malformed
 * name is refused (400), never dropped.
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
  return { actor: req.operatorActor, person: s.kind === 'staff' ? { id: s.id, name: s.name, email: s.email } : null };
}
