import { QueueSummary } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.ts';
import { ok } from '../../http/envelope.ts';
import { responses } from '../../http/schemas.ts';
import type { Queue, QueueName } from '../../store/queue-store.ts';

const sec = [{ operator: [] }];

const queueWire = (q: Queue, at: Date) => ({
  count: q.count,
  oldestSince: q.oldestSince?.toISOString() ?? null,
  oldestAgeSeconds: q.oldestSince ? Math.max(0, Math.trunc((at.getTime() - q.oldestSince.getTime()) / 1000)) : null,
});

/** What waits for the desk: counts and the oldest wait of each queue, for a viewer and up. */
export const queueRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/queue/summary',
      {
        schema: {
          tags: ['operator: queue'],
          security: sec,
          operationId: 'getQueueSummary',
          response: responses(200, QueueSummary),
          summary:
            'Requests waiting for the desk by queue: pending orders and withdrawals, approved ones awaiting fill or payout, unattributed deposits; count and oldest wait',
        },
      },
      async (req) => {
        const at = deps.clock.now();
        const s = await deps.store.queues.summary();
        const w = (q: QueueName) => queueWire(s[q], at);
        return ok(req.id, {
          asOf: at.toISOString(),
          ordersPendingApproval: w('ordersPendingApproval'),
          ordersAwaitingFill: w('ordersAwaitingFill'),
          withdrawalsPendingApproval: w('withdrawalsPendingApproval'),
          withdrawalsAwaitingPayout: w('withdrawalsAwaitingPayout'),
          depositsUnattributed: w('depositsUnattributed'),
        });
      },
    );
  };
