import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable } from './common.ts';

/** One queue of the desk: requests waiting, and the oldest one's wait. */
export const DeskQueue = Type.Object({
  count: Type.Integer({ minimum: 0 }),
  oldestSince: Nullable(DateTime),
  oldestAgeSeconds: Nullable(Type.Integer({ minimum: 0, description: 'whole seconds the oldest request has waited, at asOf' })),
});
export type DeskQueue = Static<typeof DeskQueue>;

/** GET /operator/v1/queue/summary: what waits for a person, by queue. Awaiting fill and payout fill up in production only (docs/design/money-and-states.md). */
export const QueueSummary = Type.Object({
  asOf: DateTime,
  ordersPendingApproval: DeskQueue,
  ordersAwaitingFill: DeskQueue,
  withdrawalsPendingApproval: DeskQueue,
  withdrawalsAwaitingPayout: DeskQueue,
  depositsUnattributed: DeskQueue,
});
export type QueueSummary = Static<typeof QueueSummary>;
