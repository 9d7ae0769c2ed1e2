import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Amount, DataTable, ErrorBox, Loading, MoneyText, ReadAt, StateBadge } from '@cambio/web-kit';
import { Empty } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { Link } from '../../lib/router.ts';
import { when } from '../../lib/time.ts';
import { t } from '../../lib/i18n.ts';

/** Available, held and total per asset, exactly as the organization sees them in the portal. */
export function BalancesPanel({ id }: { id: string }) {
  const b = useQuery({ queryKey: ['organization', id, 'balances'], queryFn: () => op.organizations.balances(id), refetchInterval: 10_000 });
  return (
    <section aria-labelledby="balances-title" className="panel">
      <h2 id="balances-title">{t('books.balances')}</h2>
      <ReadAt at={b.dataUpdatedAt} fetching={b.isFetching} />
      {b.isPending ? (
        <Loading what={t('books.loadingBalances')} />
      ) : b.error ? (
        <ErrorBox error={b.error} />
      ) : b.data.length === 0 ? (
        <Empty>{t('books.noBalance')}</Empty>
      ) : (
        <DataTable
          caption={t('books.balancesCaption')}
          rows={b.data}
          rowKey={(r) => r.assetSymbol}
          columns={[
            { label: t('common.asset'), rowHeader: true, cell: (r) => r.assetSymbol },
            {
              label: t('books.available'),
              num: true,
              cell: (r) => <Amount minor={r.amountMinor} decimals={r.assetDecimals} symbol={r.assetSymbol} />,
            },
            {
              label: t('books.held'),
              num: true,
              cell: (r) => <Amount minor={r.heldMinor} decimals={r.assetDecimals} symbol={r.assetSymbol} />,
            },
            {
              label: t('books.total'),
              num: true,
              cell: (r) => <Amount minor={r.totalMinor} decimals={r.assetDecimals} symbol={r.assetSymbol} />,
            },
          ]}
        />
      )}
    </section>
  );
}

/** The organization's orders and withdrawals, newest first, with the reason of each refusal. */
export function RequestsPanel({ id }: { id: string }) {
  const orders = useQuery({
    queryKey: ['organization', id, 'orders'],
    queryFn: async () => mine(await op.orders.list({ organizationId: id, limit: 20 }), id),
  });
  const withdrawals = useQuery({
    queryKey: ['organization', id, 'withdrawals'],
    queryFn: async () => mine(await op.withdrawals.list({ organizationId: id, limit: 20 }), id),
  });
  return (
    <section aria-labelledby="requests-title" className="panel">
      <h2 id="requests-title">{t('books.requests')}</h2>
      <h3>{t('common.orders')}</h3>
      {orders.isPending ? (
        <Loading what={t('books.loadingOrders')} />
      ) : orders.error ? (
        <ErrorBox error={orders.error} />
      ) : orders.data.items.length === 0 ? (
        <Empty>{t('books.noOrder')}</Empty>
      ) : (
        <DataTable
          caption={t('books.ordersCaption')}
          rows={orders.data.items}
          rowKey={(o) => o.id}
          columns={[
            {
              label: t('common.order'),
              rowHeader: true,
              cell: (o) => (
                <Link to={`/audit?subjectId=${encodeURIComponent(o.id)}`}>
                  <code>{o.id}</code>
                </Link>
              ),
            },
            { label: t('common.state'), cell: (o) => <StateBadge state={o.state} /> },
            { label: t('common.delivers'), num: true, cell: (o) => <MoneyText money={o.base} /> },
            { label: t('common.receives'), num: true, cell: (o) => <MoneyText money={o.quote} /> },
            { label: t('common.created'), cell: (o) => when(o.createdAt) },
            { label: t('common.reason'), cell: (o) => o.reason ?? '' },
          ]}
        />
      )}
      <h3>{t('common.withdrawals')}</h3>
      {withdrawals.isPending ? (
        <Loading what={t('books.loadingWithdrawals')} />
      ) : withdrawals.error ? (
        <ErrorBox error={withdrawals.error} />
      ) : withdrawals.data.items.length === 0 ? (
        <Empty>{t('books.noWithdrawal')}</Empty>
      ) : (
        <DataTable
          caption={t('books.withdrawalsCaption')}
          rows={withdrawals.data.items}
          rowKey={(w) => w.id}
          columns={[
            {
              label: t('common.withdrawal'),
              rowHeader: true,
              cell: (w) => (
                <Link to={`/audit?subjectId=${encodeURIComponent(w.id)}`}>
                  <code>{w.id}</code>
                </Link>
              ),
            },
            { label: t('common.state'), cell: (w) => <StateBadge state={w.state} /> },
            { label: t('common.amount'), num: true, cell: (w) => <MoneyText money={w.money} /> },
            { label: t('decision.to'), cell: (w) => w.destinationSummary },
            { label: t('common.created'), cell: (w) => when(w.createdAt) },
            { label: t('common.reason'), cell: (w) => w.reason ?? '' },
          ]}
        />
      )}
    </section>
  );
}

/** Only this organization's records, even from a server that would not filter them. */
function mine<T extends { organizationId: string }>(p: { items: T[]; pagination: unknown }, id: string) {
  return { ...p, items: p.items.filter((x) => x.organizationId === id) };
}

/** Every posting of the organization's accounts, newest first, paged. */
export function LedgerPanel({ id }: { id: string }) {
  const [page, setPage] = useState(1);
  const [asOf, setAsOf] = useState<string | undefined>(undefined);
  const l = useQuery({
    queryKey: ['organization', id, 'ledger', page, asOf],
    queryFn: () => op.organizations.ledger(id, { page, limit: 20, ...(asOf ? { asOf } : {}) }),
    placeholderData: (prev) => prev,
  });
  const go = (p: number) => {
    if (!asOf && l.data?.pagination.asOf) setAsOf(l.data.pagination.asOf);
    setPage(p);
  };
  return (
    <section aria-labelledby="ledger-title" className="panel">
      <h2 id="ledger-title">{t('books.ledger')}</h2>
      {l.isPending ? (
        <Loading what={t('books.loadingLedger')} />
      ) : l.error ? (
        <ErrorBox error={l.error} />
      ) : l.data.items.length === 0 ? (
        <Empty>{t('books.noMovement')}</Empty>
      ) : (
        <>
          <DataTable
            caption={t('books.ledgerCaption')}
            rows={l.data.items}
            rowKey={(e) => e.id}
            columns={[
              { label: t('audit.when'), cell: (e) => when(e.createdAt) },
              { label: t('audit.kind'), cell: (e) => e.kind },
              { label: t('books.account'), cell: (e) => e.account },
              {
                label: t('common.amount'),
                num: true,
                cell: (e) => <Amount minor={e.amountMinor} decimals={e.assetDecimals} symbol={e.assetSymbol} />,
              },
              { label: t('books.reference'), cell: (e) => (e.referenceId ? <code>{e.referenceId}</code> : '') },
              { label: t('books.memo'), cell: (e) => e.memo ?? '' },
            ]}
          />
          <nav aria-label={t('books.ledgerPages')} className="pager">
            <button type="button" disabled={page <= 1} onClick={() => go(page - 1)}>
              {t('common.prev')}
            </button>
            <span>{t('common.page', { page: l.data.pagination.page, pages: Math.max(1, l.data.pagination.totalPages) })}</span>
            <button type="button" disabled={page >= l.data.pagination.totalPages} onClick={() => go(page + 1)}>
              {t('common.next')}
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
