import { AuditRecord, ListQuery } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../app.ts';
import { ok } from '../../http/envelope.ts';
import { pageParams } from '../../http/page-params.ts';
import { listResponses } from '../../http/schemas.ts';

/** The audit trail of every operator decision: who, what, when, before, after. Newest first. */
export const auditRoutes = ({ store }: AppDeps): FastifyPluginAsyncTypebox => async (app) => {
  app.get('/audit', {
    schema: {
      tags: ['operator: audit'], security: [{ operator: [] }],
      querystring: ListQuery({ subjectId: Type.Optional(Type.String({ maxLength: 64 })), action: Type.Optional(Type.String({ maxLength: 64 })) }),
      response: listResponses(AuditRecord),
    },
  }, async (req) => {
    const page = await store.audit.list(pageParams(req.query), { ...(req.query.subjectId ? { subjectId: req.query.subjectId } : {}), ...(req.query.action ? { action: req.query.action } : {}) });
    return ok(req.id, page.items.map((a) => ({ ...a, createdAt: a.createdAt.toISOString() })), page.pagination);
  });
};
