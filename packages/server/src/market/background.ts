import type { AppDeps } from '../app.ts';
import type { BackgroundTask } from '../background.ts';
import { recoverApproved } from '../domain/orders/recover-approved.ts';
import { marketOf } from './index.ts';

/** Settles orders a crash left between approval and settlement (also soon after a restart). */
export const recoverApprovedOrdersTask: BackgroundTask = {
  name: 'recover-approved-orders',
  everyMs: 15_000,
  run: async (deps: AppDeps) => {
    const settled = await recoverApproved(deps.store.orders, marketOf(deps), deps.clock, undefined,
      (orderId, err) => deps.logger?.error({ err, orderId }, 'could not settle an order left approved; will retry'));
    for (const o of settled) deps.logger?.warn({ orderId: o.id, state: o.state }, 'recovered an order left approved');
  },
};
