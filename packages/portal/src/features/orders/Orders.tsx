import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { usePortal } from '../../app/context.tsx';
import { Amount, DateTime, ErrorBox, Loading, Pager, ReadAt, StateBadge } from '../../components/ui.tsx';

/** Exchange requests, newest first, paged; refreshes by itself while one waits for the operator. */
export function Orders() {
  const { sdk, t } = usePortal();
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ['orders', page], queryFn: () => sdk.orders.list({ page, limit: 10 }), placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((o) => o.state === 'pending_approval' || o.state === 'approved') ? 3000 : false),
  });
  return (
    <>
      <h1>{t('orders.title')}</h1>
      <ErrorBox error={q.error} />
      {q.isPending ? <Loading /> : q.data && (q.data.items.length === 0 ? <p>{t('common.none')}</p> : (
        <>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">{t('orders.title')}</caption>
              <thead><tr>
                <th scope="col">{t('common.created')}</th>
                <th scope="col" className="num">{t('orders.deliver')}</th>
                <th scope="col" className="num">{t('orders.receive')}</th>
                <th scope="col">{t('common.state')}</th>
              </tr></thead>
              <tbody>
                {q.data.items.map((o) => (
                  <tr key={o.id}>
                    <td data-label={t('common.created')}><DateTime iso={o.createdAt} /></td>
                    <td className="num" data-label={t('orders.deliver')}><Amount minor={o.base.amountMinor} decimals={o.base.assetDecimals} symbol={o.base.assetSymbol} /></td>
                    <td className="num" data-label={t('orders.receive')}><Amount minor={o.quote.amountMinor} decimals={o.quote.assetDecimals} symbol={o.quote.assetSymbol} /></td>
                    <td data-label={t('common.state')}><StateBadge state={o.state} />{o.reason && <span className="small"> — {o.reason}</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} totalPages={q.data.pagination.totalPages} onPage={setPage} />
          <ReadAt at={q.dataUpdatedAt} />
        </>
      ))}
    </>
  );
}
