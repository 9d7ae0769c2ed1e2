import { sql } from 'kysely';
import type { Db } from './db.ts';

/** One queue of the desk: how many requests wait in it and since when the oldest has waited. */
export interface Queue {
  count: number;
  oldestSince: Date | null;
}

export const QUEUES = [
  'ordersPendingApproval',
  'ordersAwaitingFill',
  'withdrawalsPendingApproval',
  'withdrawalsAwaitingPayout',
  'depositsUnattributed',
] as const;
export type QueueName = (typeof QUEUES)[number];

/**
 * What waits for a person at the desk. A pending request waits since it was made; an approved one
 * (production: the desk executes or pays out, docs/design/money-and-states.md) since its approval; an unattributed arrival
 * since it was recorded. Orders and withdrawals are read through their state index; a pending one that still
 * waits for its organization's members is not the desk's yet (docs/controls.md).
 */
export class QueueStore {
  constructor(private readonly db: Db) {}

  async summary(): Promise<Record<QueueName, Queue>> {
    const r = await sql<{ q: QueueName; n: string; oldest: Date | string | null }>`
      select 'ordersPendingApproval' as q, count(*) as n, min(created_at) as oldest from orders o where state = 'pending_approval'
        and not exists (select 1 from organization_approvals a where a.kind = 'orders' and a.request_id = o.id and a.waiting_for = 'organization')
      union all select 'ordersAwaitingFill', count(*), min(updated_at) from orders where state = 'approved'
      union all select 'withdrawalsPendingApproval', count(*), min(created_at) from withdrawals w where state = 'pending_approval'
        and not exists (select 1 from organization_approvals a where a.kind = 'withdrawals' and a.request_id = w.id and a.waiting_for = 'organization')
      union all select 'withdrawalsAwaitingPayout', count(*), min(updated_at) from withdrawals where state = 'approved'
      union all select 'depositsUnattributed', count(*), min(created_at) from deposits where state = 'unattributed'`.execute(this.db);
    const out = Object.fromEntries(QUEUES.map((q) => [q, { count: 0, oldestSince: null }])) as Record<QueueName, Queue>;
    for (const row of r.rows) out[row.q] = { count: Number(row.n), oldestSince: row.oldest === null ? null : new Date(row.oldest) };
    return out;
  }
}
