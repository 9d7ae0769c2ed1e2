import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { usePortal } from '../../app/context.tsx';
import { Amount, DateTime, ErrorBox, Loading, Pager, ReadAt } from '../../components/ui.tsx';

/** Every movement of the organization's accounts, newest first, paged. */
export function Ledger() {
  const { sdk, t } = usePortal();
  const [page, setPage] = useState(1);
  const q = useQuery({ queryKey: ['ledger', page], queryFn: () => sdk.ledger.list({ page, limit: 20 }), placeholderData: keepPreviousData });
  return (
    <>
      <h1>{t('ledger.title')}</h1>
      <ErrorBox error={q.error} />
      {q.isPending ? <Loading /> : q.data && (q.data.items.length === 0 ? <p>{t('common.none')}</p> : (
        <>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">{t('ledger.title')}</caption>
              <thead><tr>
                <th scope="col">{t('common.created')}</th>
                <th scope="col">{t('ledger.kind')}</th>
                <th scope="col">{t('ledger.account')}</th>
                <th scope="col" className="num">{t('common.amount')}</th>
              </tr></thead>
              <tbody>
                {q.data.items.map((e) => (
                  <tr key={e.id}>
                    <td data-label={t('common.created')}><DateTime iso={e.createdAt} /></td>
                    <td data-label={t('ledger.kind')}>{e.kind}{e.memo ? <span className="small"> — {e.memo}</span> : null}</td>
                    <td data-label={t('ledger.account')}>{e.account}</td>
                    <td className="num" data-label={t('common.amount')}><Amount minor={e.amountMinor} decimals={e.assetDecimals} symbol={e.assetSymbol} /></td>
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
