import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { idempotency } from '../http/plugins/idempotency.ts';
import { operatorAuth } from '../http/plugins/operator-auth.ts';
import { staffRoutes } from './people/staff.ts';
import { operatorRoutes } from './routes/index.ts';

/** The operator API at /operator/v1: its own token, the same envelope and rules as the client API. */
export async function operatorApi(app: FastifyInstance, deps: AppDeps) {
  app.addHook('onRequest', operatorAuth(deps));
  // Keys are per staff person (`staff:<id>`); the bootstrap token, whatever X-Operator says, has one space.
  idempotency(
    app,
    deps.store.idempotency,
    (req) => (req.operatorActor === undefined ? undefined : req.operatorActor.startsWith('staff:') ? req.operatorActor : 'bootstrap'),
    deps.secret,
  );
  for (const r of operatorRoutes) await app.register(r(deps));
  await app.register(staffRoutes(deps));
}
