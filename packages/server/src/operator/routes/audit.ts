import { AuditRecord, DateTime, ListQuery } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { ok } from '../../http/envelope.ts';
import { pageParams } from '../../http/page-params.ts';
import { listResponses } from '../../http/schemas.ts';

/** The audit trail of every operator decision: who, what, when, before, after. Newest first. */
export const auditRoutes =
  ({ store }: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/audit',
      {
        schema: {
          tags: ['operator: audit'],
          security: [{ operator: [] }],
          querystring: ListQuery({
            subjectId: Type.Optional(Type.String({ maxLength: 64 })),
            action: Type.Optional(Type.String({ maxLength: 64 })),
            actor: Type.Optional(Type.String({ minLength: 1, maxLength: 140 })),
            person: Type.Optional(Type.String({ minLength: 1, maxLength: 140 })),
            organizationId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
            from: Type.Optional(DateTime),
            to: Type.Optional(DateTime),
          }),
          response: listResponses(AuditRecord),
          summary:
            "The audit trail, newest first; ?subjectId=, ?action=, ?actor= (staff:<id>, bootstrap), ?person= (part of a person's name or email), ?organizationId= (it and its records), ?from= and ?to= (to exclusive) filter",
        },
      },
      async (req) => {
        const q = req.query;
        const page = await store.audit.list(pageParams(q), {
          ...(q.subjectId ? { subjectId: q.subjectId } : {}),
          ...(q.action ? { action: q.action } : {}),
          ...(q.actor ? { actor: q.actor } : {}),
          ...(q.person?.trim() ? { person: q.person } : {}),
          ...(q.organizationId ? { organizationId: q.organizationId } : {}),
          ...(q.from ? { from: new Date(q.from) } : {}),
          ...(q.to ? { to: new Date(q.to) } : {}),
        });
        return ok(
          req.id,
          page.items.map((a) => ({ ...a, createdAt: a.createdAt.toISOString() })),
          page.pagination,
        );
      },
    );
  };
