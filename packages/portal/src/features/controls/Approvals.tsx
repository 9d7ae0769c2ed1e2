import type { PortalWaitingApproval } from '@cambio/sdk';
import { DataTable, ErrorBox, Field, Loading, MoneyText } from '@cambio/web-kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DateTime, Notice } from '../../components/ui.tsx';
import type { MessageKey } from '../../lib/i18n.ts';
import { usePortal } from '../../lib/portal-context.ts';

const KIND: Record<PortalWaitingApproval['kind'], MessageKey> = {
  orders: 'approvals.kind.orders',
  withdrawals: 'approvals.kind.withdrawals',
  destinations: 'approvals.kind.destinations',
  policy: 'approvals.kind.policy',
};

/** Approve, or reject with a reason, one request; the member who asked sees why they cannot. */
function Decide({ w, onDone }: { w: PortalWaitingApproval; onDone: (message: MessageKey) => void }) {
  const { sdk, t, session, can } = usePortal();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (!can('portal:approve')) return null;
  if (w.requestedBy.id === session?.member.id) return <span className="small">{t('approvals.own')}</span>;
  const act = async (f: () => Promise<unknown>, message: MessageKey) => {
    setBusy(true);
    setError(null);
    try {
      await f();
      onDone(message);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const what = `${t(KIND[w.kind])} ${w.id}`;
  return (
    <div>
      <ErrorBox error={error} />
      {!rejecting ? (
        <>
          <button
            type="button"
            disabled={busy}
            aria-label={t('approvals.approveOf', { what })}
            onClick={() => void act(() => sdk.approvals.approve(w.kind, w.id), 'approvals.approved')}
          >
            {t('approvals.approve')}
          </button>{' '}
          <button type="button" className="secondary" aria-label={t('approvals.rejectOf', { what })} onClick={() => setRejecting(true)}>
            {t('approvals.reject')}
          </button>
        </>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void act(() => sdk.approvals.reject(w.kind, w.id, reason.trim() ? { reason: reason.trim() } : {}), 'approvals.rejected');
          }}
        >
          <Field label={t('approvals.reason')} value={reason} onChange={setReason} autoComplete="off" />
          <button type="submit" className="danger" disabled={busy}>
            {t('approvals.confirmReject')}
          </button>{' '}
          <button type="button" className="secondary" onClick={() => setRejecting(false)}>
            {t('common.cancel')}
          </button>
        </form>
      )}
    </div>
  );
}

/** What waits for the organization's members (docs/controls.md): what, how much, who asked, who approved, how many more. */
export function Approvals() {
  const { sdk, t } = usePortal();
  const qc = useQueryClient();
  const [done, setDone] = useState<MessageKey | null>(null);
  // What waits changes as colleagues ask and decide: read again every few seconds while the page is open.
  const q = useQuery({ queryKey: ['approvals'], queryFn: () => sdk.approvals.list({ state: 'waiting' }), refetchInterval: 5_000 });
  const more = (n: number) => (n === 1 ? t('approvals.moreOne') : t('approvals.moreMany', { n }));
  return (
    <section aria-labelledby="approvals-title">
      <h1 id="approvals-title">{t('approvals.title')}</h1>
      <p>{t('approvals.intro')}</p>
      {done && <Notice tone="success">{t(done)}</Notice>}
      <ErrorBox error={q.error} />
      {!q.data ? (
        <Loading />
      ) : q.data.length === 0 ? (
        <p>{t('approvals.none')}</p>
      ) : (
        <DataTable
          caption={t('approvals.title')}
          rows={q.data}
          rowKey={(w) => `${w.kind}/${w.id}`}
          columns={[
            { label: t('approvals.col.kind'), rowHeader: true, cell: (w) => t(KIND[w.kind]) },
            { label: t('approvals.col.amount'), num: true, cell: (w) => (w.money ? <MoneyText money={w.money} /> : '—') },
            { label: t('approvals.col.what'), cell: (w) => (w.kind === 'policy' ? t('approvals.kind.policy') : w.summary) },
            { label: t('approvals.col.askedBy'), cell: (w) => w.requestedBy.name },
            {
              label: t('approvals.col.approvedBy'),
              cell: (w) => (w.approvals.given.length ? w.approvals.given.map((g) => g.name).join(', ') : '—'),
            },
            { label: t('approvals.col.needed'), cell: (w) => more(w.approvals.required - w.approvals.given.length) },
            { label: t('approvals.col.created'), cell: (w) => <DateTime iso={w.createdAt} /> },
            {
              label: t('approvals.col.actions'),
              actions: true,
              cell: (w) => (
                <Decide
                  w={w}
                  onDone={(m) => {
                    setDone(m);
                    void qc.invalidateQueries({ queryKey: ['approvals'] });
                  }}
                />
              ),
            },
          ]}
        />
      )}
    </section>
  );
}
