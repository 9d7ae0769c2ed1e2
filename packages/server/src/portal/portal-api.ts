import { PortalSession } from '@cambio/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { DomainError } from '../domain/errors.ts';
import { canOperate } from '../domain/organizations/organization.ts';
import { idempotency } from '../http/plugins/idempotency.ts';
import { registerRateLimit } from '../http/plugins/rate-limit.ts';
import { memberFromCookie } from '../people/member-auth.ts';
import { SELF_SERVICE, sessionRoutes } from '../http/session-routes.ts';
import { apiKeyRoutes } from './api-keys.ts';
import { memberOf } from './member-of.ts';
import { teamRoutes } from './team.ts';
import { destinationWaitRoutes } from './destinations.ts';
import { reportingRoutes } from './reporting.ts';
import { controlsRoutes } from './controls.ts';
import { auditRoutes } from './audit.ts';
import { memberWire } from '../http/wire/people.ts';

const PREFIX = '/portal/v1';

/**
 * /portal/v1: what only people do (docs/design/people-and-apps.md). Every route but sign-in and accepting an invitation
 * needs a member's session cookie; writes must come from the service's own origin; a route names the
 * permissions that allow it; where the organization requires TOTP, a member without it may only enrol.
 */
export async function portalApi(app: FastifyInstance, deps: AppDeps) {
  await registerRateLimit(app, { perMinute: deps.config.rateLimitPerMin, redis: deps.redis });
  app.addHook('onRequest', async (req) => {
    const rc = req.routeOptions.config;
    if (rc?.public) return;
    const m = await memberFromCookie(deps, req);
    if (!m) throw new DomainError('auth.unauthenticated');
    req.member = m;
    const route = `${req.method} ${(req.routeOptions.url ?? '').slice(PREFIX.length)}`;
    if (m.organization.requireTotp && !m.totpEnrolled && !SELF_SERVICE.has(route)) throw new DomainError('auth.totp_required');
    if (rc?.portal && !rc.portal.some((p) => m.member.permissions.includes(p)))
      throw new DomainError('auth.scope_missing', { scope: rc.portal.join(' or ') });
  });
  // Idempotency-Key on every POST (docs/api-guide.md), per member: answers here carry secrets shown once to the
  // person who asked (a key, an invitation, a TOTP secret), never replayed to another member. Signing in
  // and accepting an invitation have no member yet: the header is not used there.
  idempotency(app, deps.store.idempotency, (req) => (req.member ? `member:${req.member.member.id}` : undefined), deps.secret);

  const view = async (id: string) => {
    const m = await deps.store.organizations.getMember(id);
    const org = m ? await deps.store.organizations.get(m.organizationId) : null;
    const team = m ? await deps.store.members.member(m.organizationId, id) : null;
    if (!m || !org || !team) throw new DomainError('auth.unauthenticated');
    // The stop while not reconciled travels with the session: the portal reads it on every page for its banner.
    // The block explorers the operator configured: the portal links a txid only to one of these.
    const platform = { reconciled: (await deps.store.reconciliation.state()).reconciled, explorers: deps.config.explorers };
    return {
      member: memberWire(team),
      organization: { id: org.id, name: org.name, status: org.status, canOperate: canOperate(org), requireTotp: org.requireTotp },
      platform,
    };
  };
  await app.register(
    sessionRoutes(deps, {
      kind: 'member',
      tags: ['portal: session'],
      security: [{ memberSession: [] }],
      view,
      viewSchema: PortalSession,
      current: (req) => {
        const m = memberOf(req);
        return { id: m.member.id, email: m.member.email, sessionId: m.sessionId };
      },
    }),
  );
  await app.register(teamRoutes(deps));
  await app.register(apiKeyRoutes(deps));
  await app.register(destinationWaitRoutes(deps));
  await app.register(reportingRoutes(deps));
  await app.register(controlsRoutes(deps));
  await app.register(auditRoutes(deps));
}
