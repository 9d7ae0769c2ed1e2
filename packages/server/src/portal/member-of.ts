import type { FastifyRequest } from 'fastify';
import type { MemberContext } from '../people/member-auth.ts';

/** The signed-in member; the portal's hook guarantees it on every non-public route. */
export function memberOf(req: FastifyRequest): MemberContext {
  if (!req.member) throw new Error('portal route reached without a session');
  return req.member;
}
