import { OrganizationAuditEntry, PageQuery } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../deps.ts';
import { ok } from '../http/envelope.ts';
import { pageParams } from '../http/page-params.ts';
import { listResponses } from '../http/schemas.ts';
import type { AuditRow } from '../store/audit-store.ts';
import { memberOf } from './member-of.ts';

/**
 * Who did it, as the organization may read it: its members and their keys by name; the operator's staff
 * (and the bootstrap token) only as `operator`, never by name or email; anything else as `system`.
 */
function actorOf(r: AuditRow): OrganizationAuditEntry['actor'] {
  const [kind, ...rest] = r.actor.split(':');
  const id = rest.join(':');
  if (kind === 'member' && id) return { type: 'member', id, name: r.actorName };
  if (kind === 'key' && id) return { type: 'key', id, name: r.actorName };
  if (kind === 'staff' || kind === 'bootstrap') return { type: 'operator', id: null, name: null };
  return { type: 'system', id: null, name: null };
}

/** The organization's own audit trail, newest first (docs/controls.md, "Auditors"): `portal:audit`. */
export const auditRoutes =
  ({ store }: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/audit',
      {
        config: { portal: ['portal:audit'] },
        schema: {
          tags: ['portal: audit'],
          security: [{ memberSession: [] }],
          querystring: PageQuery,
          response: listResponses(OrganizationAuditEntry),
          summary: "The organization's own audit trail, newest first: who, what, when, before and after",
        },
      },
      async (req) => {
        const page = await store.audit.list(pageParams(req.query), { organizationId: memberOf(req).organization.id });
        return ok(
          req.id,
          page.items.map((a) => ({
            id: a.id,
            actor: actorOf(a),
            action: a.action,
            subjectType: a.subjectType,
            subjectId: a.subjectId,
            before: a.before,
            after: a.after,
            createdAt: a.createdAt.toISOString(),
          })),
          page.pagination,
        );
      },
    );
  };
