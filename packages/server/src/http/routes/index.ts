import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { depositRoutes } from './deposits.ts';
import { eventRoutes } from './events.ts';
import { orderRoutes } from './orders.ts';
import { quoteRoutes } from './quotes.ts';
import { withdrawalRoutes } from './withdrawals.ts';

/**
 * Client routes of the capabilities beyond the foundation (quotes, orders, deposits, withdrawals).
 * Each capability adds its plugin factory here.
 */
export const extraClientRoutes: Array<(deps: AppDeps) => FastifyPluginAsync> = [
  quoteRoutes,
  orderRoutes,
  depositRoutes,
  withdrawalRoutes,
  eventRoutes,
];
