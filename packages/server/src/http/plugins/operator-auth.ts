import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';

export const hashOperatorToken = (token: string) => createHash('sha256').update(token).digest('hex');

const X_OPERATOR_RULE = {
  en: '1 to 64 letters, digits, spaces or . @ _ -',
  es: 'de 1 a 64 letras, dígitos, espacios o . @ _ -',
};

/** `Authorization: Bearer <OPERATOR_TOKEN>`, compared as hashes in constant time. */
export function operatorAuth(tokenHash: () => string) {
  return async function authenticateOperator(req: FastifyRequest) {
    if (req.routeOptions.config?.public) return;
    const a = req.headers.authorization;
    const token = typeof a === 'string' && /^Bearer /i.test(a) ? a.slice(7).trim() : '';
    const got = Buffer.from(hashOperatorToken(token), 'hex');
    const want = Buffer.from(tokenHash(), 'hex');
    if (got.length !== want.length || !timingSafeEqual(got, want)) throw new DomainError('auth.unauthenticated');
    // Who decided: the desk names itself in X-Operator (recorded in the audit trail). A malformed one is a 400, never dropped.
    const who = req.headers['x-operator'];
    if (who === undefined) req.operatorActor = 'operator';
    else if (typeof who === 'string' && /^[\w .@-]{1,64}$/.test(who)) req.operatorActor = `operator:${who}`;
    else throw new DomainError('request.invalid_header', { header: 'X-Operator', detail: X_OPERATOR_RULE[req.lang] });
  };
}
