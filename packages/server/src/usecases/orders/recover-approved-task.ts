import type { BackgroundTask } from '../../background.ts';
import { recoverApproved } from './execute-approved.ts';

/** Settles orders a crash left between approval and settlement (also soon after a restart). Sandbox only: the desk's orders wait for staff. */
export const recoverApprovedOrdersTask: BackgroundTask = {
  name: 'recover-approved-orders',
  everyMs: 15_000,
  run: async (deps) => {
    const settled = await recoverApproved(deps, undefined,
      (orderId, err) => deps.logger?.error({ err, orderId }, 'could not settle an order left approved; will retry'));
    for (const o of settled) deps.logger?.warn({ orderId: o.id, state: o.state }, 'recovered an order left approved');
  },
};
