import { EventRecord, EventsQuery } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { readEventId, showEventId } from '../../domain/opaque-ids.ts';
import { ok } from '../envelope.ts';
import { principalOf } from '../route-config.ts';
import { apiKeySecurity, listResponses } from '../schemas.ts';

/** The organization's events, oldest first after a cursor (docs/api-guide.md). */
export const eventRoutes =
  ({ store, secret }: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/events',
      {
        config: { scope: 'portal:read' },
        schema: {
          tags: ['events'],
          summary:
            "State changes of orders, withdrawals, deposits, declarations and destinations, oldest first after ?after=<event id>; ?subjectId=<record id> for one record's",
          security: apiKeySecurity,
          querystring: EventsQuery,
          response: listResponses(EventRecord),
        },
      },
      async (req) => {
        // Ids are opaque outside (domain/opaque-ids.ts): the cursor is read back to the event it names.
        const after = req.query.after === undefined ? undefined : readEventId(secret, req.query.after);
        if (after === null) throw new DomainError('events.cursor_not_found');
        const events = await store.events.list(principalOf(req).organization.id, after, req.query.limit ?? 50, req.query.subjectId);
        if (!events) throw new DomainError('events.cursor_not_found');
        return ok(
          req.id,
          events.map((e) => ({
            id: showEventId(secret, e.id),
            type: e.type as EventRecord['type'],
            createdAt: e.createdAt.toISOString(),
            data: e.data,
          })),
        );
      },
    );
  };
