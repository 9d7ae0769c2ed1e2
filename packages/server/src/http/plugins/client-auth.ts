import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { DomainError } from '../../domain/errors.ts';
import { DUMMY_HASH, hashSecret, parseApiKey, sameHash } from '../../domain/keys/api-key.ts';
import { ipAllowed } from '../../domain/keys/ip-allow.ts';
import { effectivePermissions } from '../../domain/keys/permissions.ts';
import { canOperate } from '../../domain/organizations/organization.ts';
import type { Clock } from '../../domain/ports.ts';
import type { Store } from '../../store/index.ts';

/**
 * The key sent in `X-API-Key` or `Authorization: Bearer`. Both sent and different: no credential (401
 * like any other cause, after the same hash and compare), never one of them chosen silently.
 */
function credential(req: FastifyRequest): string | undefined {
  const x = req.headers['x-api-key'];
  const fromHeader = typeof x === 'string' && x !== '' ? x.trim() : undefined;
  const a = req.headers.authorization;
  const fromBearer = typeof a === 'string' && /^Bearer /i.test(a) ? a.slice(7).trim() : undefined;
  if (fromHeader !== undefined && fromBearer !== undefined && fromHeader !== fromBearer) return undefined;
  return fromHeader ?? fromBearer;
}

/**
 * Authenticates every client route and applies its rules, in the order a caller should meet them:
 * 401 (one answer for every cause), 403 missing scope, 403 cannot operate, 409 not reconciled.
 * Permissions are read on every request: a role reduced now reduces the key on its next call.
 */
export function clientAuth(deps: { store: Store; config: Config; clock: Clock; secret: string }) {
  const { store, config, clock, secret } = deps;
  return async function authenticate(req: FastifyRequest, _reply: FastifyReply) {
    const rc = req.routeOptions.config;
    if (rc?.public) return;
    const parsed = parseApiKey(credential(req), config.keyTag);
    const row = parsed ? await store.keys.findForAuth(parsed.prefix) : null;
    // Always hash and compare, so an unknown prefix costs what a wrong secret costs.
    const match = sameHash(hashSecret(secret, parsed?.secret ?? ''), row?.secretHash ?? DUMMY_HASH);
    const now = clock.now();
    if (!row || !match || row.revokedAt || (row.expiresAt && row.expiresAt <= now) || !ipAllowed(row.allowedIps, req.ip)) {
      throw new DomainError('auth.unauthenticated');
    }
    const permissions = effectivePermissions(row.scopes, row.role);
    req.principal = { keyId: row.id, memberId: row.memberId, organization: row.organization, permissions };

    if (rc.scope) {
      const any = Array.isArray(rc.scope) ? rc.scope : [rc.scope];
      if (!any.some((s) => permissions.includes(s))) throw new DomainError('auth.scope_missing', { scope: any.join(' or ') });
    }
    if (rc.operate && !canOperate(row.organization)) throw new DomainError('clients.client_cannot_operate');
    if (rc.movesMoney && !row.reconciled) throw new DomainError('ledger.ledger_not_reconciled');
  };
}
