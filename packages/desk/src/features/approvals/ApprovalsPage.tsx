import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorBox, Loading, MoneyText, ReadAt, StateBadge } from '@cambio/web-kit';
import { Empty, Page } from '../../components/Section.tsx';
import { useDesk } from '../../lib/desk-context.ts';
import { useOrganizationNames } from '../../lib/organizations.ts';
import { Link } from '../../lib/router.ts';
import { can } from '../../lib/roles.ts';
import { age, when } from '../../lib/time.ts';
import { DecisionDialog, type Decision } from './DecisionDialog.tsx';
import { PoliciesPanel } from './PoliciesPanel.tsx';
import { RulesPanel } from './RulesPanel.tsx';
import { StaffRequestsPanel } from './StaffRequestsPanel.tsx';
import { BulkApproveDialog } from './BulkApprove.tsx';
import { DecidedHistory } from './DecidedHistory.tsx';
import { WaitsSummary } from './WaitsSummary.tsx';
import { fourEyes, oldestFirst, type QueueItem } from './queue.ts';
import { queueKey, useRequests } from './useQueue.ts';
import { fourEyesWords, roleWord, t } from '../../lib/i18n.ts';

/** One queue of what waits for a person, oldest first; in production, also what waits for execution. */
export function ApprovalsPage() {
  const { staff, mode } = useDesk();
  const qc = useQueryClient();
  const waiting = useRequests('pending_approval');
  const approved = useRequests('approved', mode === 'production');
  const [decision, setDecision] = useState<Decision | null>(null);
  const [done, setDone] = useState<{ text: string; id: string } | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulk, setBulk] = useState(false);
  const now = useNow();

  const queue = waiting.data ? oldestFirst(waiting.data.orders, waiting.data.withdrawals) : [];
  const toExecute = approved.data ? oldestFirst(approved.data.orders, approved.data.withdrawals) : [];
  const names = useOrganizationNames([...queue, ...toExecute].map((i) => i.record.organizationId));
  const decides = can(staff.role, 'decide') && staff.totpEnrolled;

  // Only what this person may approve now can be selected: not a request they already approved (four-eyes).
  const selectable = (item: QueueItem) => decides && !fourEyes(item.record, staff.id, fourEyesWords).mine;
  const chosen = queue.filter((i) => selected.has(i.record.id) && selectable(i));
  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const n = new Set(s);
      if (on) n.add(id);
      else n.delete(id);
      return n;
    });

  const finished = (text: string, id: string) => {
    setDone({ text, id });
    void qc.invalidateQueries({ queryKey: queueKey });
  };

  return (
    <Page title={t('nav.approvals')} intro={t('approvals.intro')}>
      <div role="status" className="live">
        {done && (
          <p className="ok-note">
            {done.text} {done.id && <Link to={`/audit?subjectId=${encodeURIComponent(done.id)}`}>{t('approvals.seeAudit')}</Link>}
          </p>
        )}
      </div>
      {!can(staff.role, 'decide') && <p className="note">{t('approvals.readsOnly', { role: roleWord(staff.role) })}</p>}
      {can(staff.role, 'decide') && !staff.totpEnrolled && <p className="note">{t('approvals.needTotp')}</p>}

      <WaitsSummary />

      <section aria-labelledby="waiting-title">
        <h2 id="waiting-title">
          {t('approvals.waiting')} {waiting.data && <span className="count">({queue.length})</span>}
        </h2>
        <ReadAt at={waiting.dataUpdatedAt} fetching={waiting.isFetching} />
        {waiting.isPending ? (
          <Loading what={t('approvals.theQueue')} />
        ) : waiting.error ? (
          <ErrorBox error={waiting.error} />
        ) : queue.length === 0 ? (
          <Empty>{t('approvals.nothingWaits')}</Empty>
        ) : (
          <>
            {decides && (
              <div className="actions bulk-bar">
                <button type="button" onClick={() => setSelected(new Set(queue.filter(selectable).map((i) => i.record.id)))}>
                  {t('approvals.selectAll')}
                </button>
                <button type="button" className="primary" disabled={chosen.length === 0} onClick={() => setBulk(true)}>
                  {t('approvals.approveSelected', { n: chosen.length })}
                </button>
              </div>
            )}
            <QueueTable
              items={queue}
              names={names}
              now={now}
              caption={t('approvals.waitingCaption')}
              select={decides ? { isSelectable: selectable, isSelected: (i) => selected.has(i.record.id), toggle } : undefined}
              actions={(item) => {
                const fe = fourEyes(item.record, staff.id, fourEyesWords);
                if (!decides) return null;
                return (
                  <>
                    <button
                      type="button"
                      className="primary"
                      disabled={fe.mine}
                      onClick={() => setDecision({ verb: 'approve', item })}
                      title={fe.mine ? t('approvals.youApprovedTitle') : undefined}
                    >
                      {t('approvals.approve')}
                      <span className="visually-hidden">
                        {' '}
                        {kindNoun(item.kind)} {item.record.id}
                      </span>
                    </button>
                    <button type="button" className="danger" onClick={() => setDecision({ verb: 'reject', item })}>
                      {t('approvals.reject')}
                      <span className="visually-hidden">
                        {' '}
                        {kindNoun(item.kind)} {item.record.id}
                      </span>
                    </button>
                    {fe.mine && <p className="small">{t('approvals.youApproved')}</p>}
                  </>
                );
              }}
            />
          </>
        )}
      </section>

      {mode === 'production' && (
        <section aria-labelledby="exec-title">
          <h2 id="exec-title">
            {t('approvals.toExecute')} {approved.data && <span className="count">({toExecute.length})</span>}
          </h2>
          <p className="intro">{t('approvals.toExecuteIntro')}</p>
          <ReadAt at={approved.dataUpdatedAt} fetching={approved.isFetching} />
          {approved.isPending ? (
            <Loading what={t('approvals.approvedRequests')} />
          ) : approved.error ? (
            <ErrorBox error={approved.error} />
          ) : toExecute.length === 0 ? (
            <Empty>{t('approvals.nothingToExecute')}</Empty>
          ) : (
            <QueueTable
              items={toExecute}
              names={names}
              now={now}
              caption={t('approvals.toExecuteCaption')}
              actions={(item) =>
                decides ? (
                  <>
                    {item.kind === 'order' ? (
                      <button type="button" className="primary" onClick={() => setDecision({ verb: 'fill', item })}>
                        {t('approvals.recordFill')}
                        <span className="visually-hidden"> {item.record.id}</span>
                      </button>
                    ) : (
                      <button type="button" className="primary" onClick={() => setDecision({ verb: 'payout', item })}>
                        {t('approvals.recordPayout')}
                        <span className="visually-hidden"> {item.record.id}</span>
                      </button>
                    )}
                    <button type="button" className="danger" onClick={() => setDecision({ verb: 'fail', item })}>
                      {t('approvals.markFailed')}
                      <span className="visually-hidden">
                        {' '}
                        {kindNoun(item.kind)} {item.record.id}
                      </span>
                    </button>
                  </>
                ) : null
              }
            />
          )}
        </section>
      )}

      <DecidedHistory />

      <StaffRequestsPanel />

      <RulesPanel />

      <PoliciesPanel />

      {bulk && (
        <BulkApproveDialog
          items={chosen}
          names={names}
          onClose={() => setBulk(false)}
          onDone={(text) => {
            setSelected(new Set());
            setDone({ text, id: '' });
            void qc.invalidateQueries({ queryKey: queueKey });
          }}
        />
      )}

      {decision && (
        <DecisionDialog
          decision={decision}
          organization={names.get(decision.item.record.organizationId) ?? decision.item.record.organizationId}
          onClose={() => setDecision(null)}
          onDone={finished}
        />
      )}
    </Page>
  );
}

interface Selection {
  isSelectable: (i: QueueItem) => boolean;
  isSelected: (i: QueueItem) => boolean;
  toggle: (id: string, on: boolean) => void;
}

function QueueTable({
  items,
  names,
  now,
  caption,
  actions,
  select,
}: {
  items: QueueItem[];
  names: Map<string, string>;
  now: number;
  caption: string;
  actions: (i: QueueItem) => React.ReactNode;
  select?: Selection;
}) {
  const { staff } = useDesk();
  return (
    <table className="queue">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {select && (
            <th scope="col">
              <span className="visually-hidden">{t('approvals.select')}</span>
            </th>
          )}
          <th scope="col">{t('common.request')}</th>
          <th scope="col">{t('common.organization')}</th>
          <th scope="col" className="num">
            {t('common.amount')}
          </th>
          <th scope="col">{t('approvals.waitingCol')}</th>
          <th scope="col">{t('approvals.approvalsCol')}</th>
          <th scope="col">{t('common.actions')}</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => {
          const r = item.record;
          const fe = fourEyes(r, staff.id, fourEyesWords);
          return (
            <tr key={`${item.kind}:${r.id}`} data-request={r.id}>
              {select && (
                <td className="select-cell">
                  {select.isSelectable(item) && (
                    <input
                      type="checkbox"
                      aria-label={t('approvals.selectOne', { kind: kindNoun(item.kind), id: r.id })}
                      checked={select.isSelected(item)}
                      onChange={(e) => select.toggle(r.id, e.target.checked)}
                    />
                  )}
                </td>
              )}
              <th scope="row">
                <span className="kind">{item.kind === 'order' ? t('common.order') : t('common.withdrawal')}</span> <code>{r.id}</code>
                <br />
                <StateBadge state={r.state} />
              </th>
              <td>
                <Link to={`/organizations/${encodeURIComponent(r.organizationId)}`}>{names.get(r.organizationId) ?? r.organizationId}</Link>
              </td>
              <td className="num">
                {item.kind === 'order' ? (
                  <>
                    <div>
                      {t('common.delivers')} <MoneyText money={item.record.base} />
                    </div>
                    <div>
                      {t('common.receives')} <MoneyText money={item.record.quote} />
                    </div>
                  </>
                ) : (
                  <>
                    <div>
                      <MoneyText money={item.record.money} />
                    </div>
                    <div className="small">{t('common.to', { where: item.record.destinationSummary })}</div>
                  </>
                )}
              </td>
              <td>
                <span title={when(r.createdAt)}>{age(r.createdAt, now)}</span>
              </td>
              <td>
                {fe.text}
                <br />
                <Link className="small" to={`/audit?subjectId=${encodeURIComponent(r.id)}`}>
                  {t('common.audit')}
                  <span className="visually-hidden">{t('common.auditOf', { id: r.id })}</span>
                </Link>
              </td>
              <td className="row-actions">
                <div>{actions(item)}</div>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The request's kind as a word in a sentence ("order", "withdrawal"). */
export const kindNoun = (kind: 'order' | 'withdrawal'): string => (kind === 'order' ? t('common.orderNoun') : t('common.withdrawalNoun'));

/** The clock the ages are counted on, ticking every 15 s. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(t);
  }, []);
  return now;
}
