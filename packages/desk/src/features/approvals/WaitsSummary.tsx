import { ErrorBox, ReadAt } from '@cambio/web-kit';
import type { QueueSummary } from '@cambio/sdk';
import { useQuery } from '@tanstack/react-query';
import { op } from '../../lib/api.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { Link } from '../../lib/router.ts';
import { age } from '../../lib/time.ts';
import { queueKey } from './useQueue.ts';
import { t, type MessageKey } from '../../lib/i18n.ts';

type QueueName = Exclude<keyof QueueSummary, 'asOf'>;

/** What each queue of the summary is, in the desk's words, and where it is worked. */
const QUEUES: Array<{ name: QueueName; label: MessageKey; to: string; production?: boolean }> = [
  { name: 'ordersPendingApproval', label: 'waits.ordersPendingApproval', to: '/approvals' },
  { name: 'withdrawalsPendingApproval', label: 'waits.withdrawalsPendingApproval', to: '/approvals' },
  { name: 'ordersAwaitingFill', label: 'waits.ordersAwaitingFill', to: '/approvals', production: true },
  { name: 'withdrawalsAwaitingPayout', label: 'waits.withdrawalsAwaitingPayout', to: '/approvals', production: true },
  { name: 'depositsUnattributed', label: 'waits.depositsUnattributed', to: '/deposits' },
];

/** The desk's dashboard: how many wait in each queue and how long the oldest has waited (GET /queue/summary). */
export function WaitsSummary() {
  const { mode } = useDesk();
  const s = useQuery({ queryKey: [...queueKey, 'summary'], queryFn: () => op.queue.summary(), refetchInterval: 5_000 });
  return (
    <section aria-labelledby="waits-title" className="panel">
      <h2 id="waits-title">{t('waits.title')}</h2>
      <ReadAt at={s.dataUpdatedAt} fetching={s.isFetching} />
      {s.error && <ErrorBox error={s.error} />}
      {s.data && (
        <ul className="waits">
          {QUEUES.filter((q) => !q.production || mode === 'production').map((q) => {
            const x = s.data[q.name];
            return (
              <li key={q.name} className={x.count > 0 ? 'waits-some' : undefined}>
                <Link to={q.to}>
                  <span className="waits-count">{x.count}</span> <span>{t(q.label)}</span>
                </Link>
                <span className="small">
                  {x.oldestAgeSeconds !== null && x.oldestSince
                    ? t('waits.oldest', { age: age(x.oldestSince, Date.parse(s.data.asOf)) })
                    : t('waits.none')}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
