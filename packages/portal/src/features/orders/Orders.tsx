import { useQueryClient } from '@tanstack/react-query';
import { collect, type Order } from '@cambio/sdk';
import { Amount, ErrorBox, formatDateTime, formatMoney, StateBadge, useActionKey } from '@cambio/web-kit';
import { useState } from 'react';
import { usePortal } from '../../lib/portal-context.ts';
import { PagedTable } from '../../components/PagedTable.tsx';
import { ALL, csvName, CsvDownload, ListFilters, REQUEST_STATES, requestFilters, type ListChoice } from '../../components/ListFilters.tsx';
import { csvFile, ORDER_CSV_COLUMNS, orderCells } from '../../lib/list-csv.ts';
import { ConfirmInline, DateTime, Notice } from '../../components/ui.tsx';
import { Link } from '../../lib/router.ts';

/**
 * Cancels what still waits for the operator (`POST …/cancel`): a confirming click, then the hold is
 * released and the balances, the ledger and the list are read again. Shared by orders and withdrawals.
 */
export function useCancel(list: 'orders' | 'withdrawals', cancel: (id: string, idempotencyKey: string) => Promise<unknown>) {
  const key = useActionKey();
  const qc = useQueryClient();
  const [asking, setAsking] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const run = async (id: string) => {
    setBusy(true);
    setError(null);
    setDone(false);
    try {
      await key.run(id, (idempotencyKey) => cancel(id, idempotencyKey));
      setAsking(null);
      setDone(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
      await Promise.all(['balances', 'ledger', list].map((k) => qc.invalidateQueries({ queryKey: [k], refetchType: 'all' })));
    }
  };
  return { asking, setAsking, busy, error, done, run };
}

/** Exchange requests, newest first, paged, filtered by state and days, as CSV; refreshes by itself while one waits for the operator. */
export function Orders() {
  const { sdk, t, can, lang } = usePortal();
  const c = useCancel('orders', (id, idempotencyKey) => sdk.orders.cancel(id, { idempotencyKey }));
  const [applied, setApplied] = useState<ListChoice>(ALL);
  const filters = requestFilters(applied);
  const what = (o: Order) => ({
    amount: formatMoney(o.base.amountMinor, o.base.assetDecimals, lang),
    asset: o.base.assetSymbol,
    date: formatDateTime(o.createdAt, lang),
  });
  return (
    <>
      <h1>{t('orders.title')}</h1>
      <ErrorBox error={c.error} />
      {c.done && <Notice tone="success">{t('orders.cancelled')}</Notice>}
      <ListFilters label={t('filters.orders')} states={REQUEST_STATES} onApply={setApplied} />
      <CsvDownload
        fileName={csvName('orders', applied)}
        csv={async () => csvFile(ORDER_CSV_COLUMNS, orderCells, await collect(sdk.orders.iterate({ limit: 100, ...filters })))}
      />
      <PagedTable
        caption={t('orders.title')}
        queryKey="orders"
        filterKey={JSON.stringify(applied)}
        read={(p) => sdk.orders.list({ ...p, ...filters })}
        waiting={(o) => o.state === 'pending_approval' || o.state === 'approved'}
        columns={[
          { label: t('common.created'), cell: (o) => <DateTime iso={o.createdAt} /> },
          {
            label: t('orders.deliver'),
            num: true,
            cell: (o) => <Amount minor={o.base.amountMinor} decimals={o.base.assetDecimals} symbol={o.base.assetSymbol} />,
          },
          {
            label: t('orders.receive'),
            num: true,
            cell: (o) => <Amount minor={o.quote.amountMinor} decimals={o.quote.assetDecimals} symbol={o.quote.assetSymbol} />,
          },
          {
            label: t('common.state'),
            cell: (o) => (
              <>
                <StateBadge state={o.state} />
                {o.reason && <span className="small"> — {o.reason}</span>}
              </>
            ),
          },
          {
            label: t('orders.actions'),
            actions: true,
            cell: (o) => (
              <span className="buttons">
                <Link to={`/orders/${encodeURIComponent(o.id)}`} aria-label={t('orders.detailsLabel', what(o))}>
                  {t('orders.details')}
                </Link>
                {can('portal:trade') &&
                  o.state === 'pending_approval' &&
                  (c.asking === o.id ? (
                    <ConfirmInline
                      question={t('orders.confirmCancel')}
                      confirm={t('orders.confirmCancelSubmit')}
                      back={t('orders.keep')}
                      busy={c.busy}
                      onConfirm={() => void c.run(o.id)}
                      onCancel={() => c.setAsking(null)}
                    />
                  ) : (
                    <button
                      type="button"
                      className="secondary"
                      aria-label={t('orders.cancelLabel', what(o))}
                      onClick={() => c.setAsking(o.id)}
                    >
                      {t('orders.cancel')}
                    </button>
                  ))}
              </span>
            ),
          },
        ]}
      />
    </>
  );
}
