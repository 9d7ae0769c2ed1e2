import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { auditRoutes } from './audit.ts';
import { operatorDepositRoutes } from './deposits.ts';
import { adjustmentRoutes } from './ledger.ts';
import { marketAssetRoutes } from './market-assets.ts';
import { marketPairRoutes } from './market-pairs.ts';
import { operatorOrderRoutes } from './orders.ts';
import { organizationRoutes } from './organizations.ts';
import { organizationBookRoutes } from './organization-books.ts';
import { organizationPeopleRoutes } from './organization-people.ts';
import { organizationTreasuryRoutes } from './organization-treasury.ts';
import { walletRoutes } from './wallets.ts';
import { destinationRoutes } from './destinations.ts';
import { reconciliationRoutes } from './reconciliation.ts';
import { policyRoutes } from './policies.ts';
import { queueRoutes } from './queue.ts';
import { staffRequestRoutes } from './staff-requests.ts';
import { operatorWithdrawalRoutes } from './withdrawals.ts';
import { operatorTransparencyRoutes } from './transparency.ts';
import { venueRoutes } from './venue.ts';

/** Every operator route plugin. Capabilities add theirs here. */
export const operatorRoutes: Array<(deps: AppDeps) => FastifyPluginAsync> = [
  organizationRoutes,
  organizationBookRoutes,
  organizationPeopleRoutes,
  organizationTreasuryRoutes,
  adjustmentRoutes,
  marketAssetRoutes,
  marketPairRoutes,
  operatorOrderRoutes,
  auditRoutes,
  walletRoutes,
  operatorDepositRoutes,
  destinationRoutes,
  operatorWithdrawalRoutes,
  reconciliationRoutes,
  policyRoutes,
  queueRoutes,
  staffRequestRoutes,
  operatorTransparencyRoutes,
  venueRoutes,
];
