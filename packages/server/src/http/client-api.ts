import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { clientAuth } from './plugins/client-auth.ts';
import { idempotency } from './plugins/idempotency.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { balancesRoutes } from './routes/balances.ts';
import { clientRoutes } from './routes/client.ts';
import { ledgerRoutes } from './routes/ledger.ts';
import { clientResourceRoutes } from './routes/index.ts';

/** The client API at /api/v1: rate limit, then authentication and each route's rules, then the route. */
export async function clientApi(app: FastifyInstance, deps: AppDeps) {
  await registerRateLimit(app, { perMinute: deps.config.rateLimitPerMin, redis: deps.redis });
  app.addHook('onRequest', clientAuth(deps));
  // Keys per organization (docs/api-guide.md); the member behind the key or the session is part of the request.
  idempotency(
    app,
    deps.store.idempotency,
    (req) => (req.principal ? `org:${req.principal.organization.id}` : undefined),
    deps.secret,
    (req) => `member:${req.principal!.memberId}`,
  );
  await app.register(clientRoutes(deps.store));
  await app.register(balancesRoutes(deps.store));
  await app.register(ledgerRoutes(deps.store, deps.secret));
  for (const r of clientResourceRoutes) await app.register(r(deps));
}
