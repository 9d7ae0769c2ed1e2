import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../../app.ts';
import { depositRoutes } from './deposits.ts';
import { withdrawalRoutes } from './withdrawals.ts';

/**
 * Client routes of the capabilities beyond the foundation (quotes, orders, deposits, withdrawals).
 * Each capability adds its plugin factory here.
 */
export const extraClientRoutes: Array<(deps: AppDeps) => FastifyPluginAsync> = [
  depositRoutes,
  withdrawalRoutes,
];
