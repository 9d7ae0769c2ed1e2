import { PortalDestinationWait } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../deps.ts';
import { isUsable } from '../domain/destinations/bank-destination.ts';
import { ok } from '../http/envelope.ts';
import { listResponses } from '../http/schemas.ts';
import { memberOf } from './member-of.ts';

/**
 * Why each destination that is not usable yet waits, for people (docs/api-guide.md, "The portal"): until
 * when it cools down and whether the operator has still to register it. `usable` of the client API decides.
 */
export const destinationWaitRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/destinations/waiting',
      {
        config: { portal: ['portal:read'] },
        schema: {
          tags: ['portal: withdrawals'],
          security: [{ memberSession: [] }],
          response: listResponses(PortalDestinationWait),
          summary: "The organization's destinations not usable yet: when the cooldown ends, whether the operator has to register it",
        },
      },
      async (req) => {
        const now = deps.clock.now();
        const all = await deps.store.destinations.allOf(memberOf(req).organization.id);
        return ok(
          req.id,
          all
            .filter((d) => !isUsable(d, now))
            .map((d) => ({ id: d.id, cooldownEndsAt: d.cooldownUntil.toISOString(), awaitingOperator: d.registeredInMarketAt === null })),
        );
      },
    );
  };
