import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { depositRoutes } from './deposits.ts';
import { eventRoutes } from './events.ts';
import { ledgerProofRoutes } from './ledger-proof.ts';
import { liabilitiesRoutes } from './liabilities.ts';
import { marketRoutes } from './market.ts';
import { orderRoutes } from './orders.ts';
import { quoteRoutes } from './quotes.ts';
import { sandboxRoutes } from './sandbox.ts';
import { treasuryRoutes } from './treasury.ts';
import { webhookRoutes } from './webhooks.ts';
import { withdrawalRoutes } from './withdrawals.ts';

/**
 * The client routes built from the app's dependencies (quotes, orders, deposits, withdrawals); client.ts,
 * balances.ts and ledger.ts need only the store and are registered by client-api.ts. A new resource adds
 * its plugin factory here.
 */
export const clientResourceRoutes: Array<(deps: AppDeps) => FastifyPluginAsync> = [
  quoteRoutes,
  orderRoutes,
  depositRoutes,
  withdrawalRoutes,
  eventRoutes,
  marketRoutes,
  webhookRoutes,
  ledgerProofRoutes,
  liabilitiesRoutes,
  sandboxRoutes,
  treasuryRoutes,
];
