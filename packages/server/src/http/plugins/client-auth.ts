import { SCOPES } from '@cambio/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { DomainError } from '../../domain/errors.ts';
import { DUMMY_HASH, hashSecret, parseApiKey, sameHash, secretDigest } from '../../domain/keys/api-key.ts';
import { ipAllowed } from '../../domain/keys/ip-allow.ts';
import { effectivePermissions } from '../../domain/keys/permissions.ts';
import { canOperate } from '../../domain/organizations/organization.ts';
import type { Clock } from '../../domain/ports.ts';
import { memberFromCookie } from '../../people/member-auth.ts';
import type { Store } from '../../store/index.ts';
import { recordKeyUse } from '../../usecases/keys/record-key-use.ts';
import type { ClientRouteConfig, Principal } from '../route-config.ts';

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
 * Permissions are evaluated on every request against the key, role and organization as last committed
 * (read, or kept by the auth cache until the next change is notified): a role reduced now reduces the key
 * on its next call.
 */
export function clientAuth(deps: { store: Store; config: Config; clock: Clock; secret: string }) {
  const { store, config, clock, secret } = deps;
  return async function authenticate(req: FastifyRequest, _reply: FastifyReply) {
    const rc = req.routeOptions.config;
    if (rc?.public) return;
    const raw = credential(req);
    // No key header at all: a member's session cookie is the second credential kind (a key with the
    // member's whole role). A key header sent, even a bad or conflicting one, is what is judged: a cookie
    // riding along never turns a refused key into a session.
    const keySent = req.headers['x-api-key'] !== undefined || req.headers.authorization !== undefined;
    if (!keySent && req.headers.cookie !== undefined) {
      const m = await memberFromCookie(deps, req);
      if (m)
        return applyRules(
          req,
          rc,
          {
            keyId: null,
            memberId: m.member.id,
            organization: m.organization,
            permissions: effectivePermissions(SCOPES, m.member.permissions),
          },
          m.reconciled,
          m.organization.requireTotp && !m.totpEnrolled,
        );
    }
    const parsed = parseApiKey(raw, config.keyTag);
    const digest = secretDigest(parsed?.secret ?? '');
    // A key authenticated before with this very secret is kept; any other is hashed and compared, always,
    // so an unknown prefix costs what a wrong secret costs.
    let row = parsed ? (store.keys.kept(parsed.prefix, digest) ?? null) : null;
    let match = row !== null;
    if (!match) {
      const presented = hashSecret(secret, parsed?.secret ?? '');
      row = parsed ? await store.keys.findForAuth(parsed.prefix, presented, digest) : null;
      match = sameHash(presented, row?.secretHash ?? DUMMY_HASH);
    }
    const now = clock.now();
    if (
      !row ||
      !match ||
      row.revokedAt ||
      row.memberRemoved ||
      (row.expiresAt && row.expiresAt <= now) ||
      !ipAllowed(row.allowedIps, req.ip)
    ) {
      throw new DomainError('auth.unauthenticated');
    }
    recordKeyUse({ store }, row.id, now);
    const permissions = effectivePermissions(row.scopes, row.role);
    applyRules(req, rc, { keyId: row.id, memberId: row.memberId, organization: row.organization, permissions }, row.reconciled, false);
  };
}

function applyRules(req: FastifyRequest, rc: ClientRouteConfig, principal: Principal, reconciled: boolean, totpMissing: boolean): void {
  req.principal = principal;
  // An organization that requires TOTP: a member who has not enrolled it may only enrol (in the portal).
  if (totpMissing) throw new DomainError('auth.totp_required');
  if (rc.scope) {
    const any = Array.isArray(rc.scope) ? rc.scope : [rc.scope];
    if (!any.some((s) => principal.permissions.includes(s))) throw new DomainError('auth.scope_missing', { scope: any.join(' or ') });
  }
  if (rc.operate && !canOperate(principal.organization)) throw new DomainError('clients.client_cannot_operate');
  if (rc.movesMoney && !reconciled) throw new DomainError('ledger.ledger_not_reconciled');
}
