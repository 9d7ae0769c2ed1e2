import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { operatorAuth } from '../http/plugins/operator-auth.ts';
import { operatorRoutes } from './routes/index.ts';

/** The operator API at /operator/v1: its own token, the same envelope and rules as the client API. */
export async function operatorApi(app: FastifyInstance, deps: AppDeps) {
  app.addHook('onRequest', operatorAuth(() => deps.operatorTokenHash));
  for (const r of operatorRoutes) await app.register(r(deps));
}
