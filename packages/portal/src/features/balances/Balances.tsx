import { useQuery } from '@tanstack/react-query';
import { usePortal } from '../../app/context.tsx';
import { Amount, ErrorBox, Loading, ReadAt } from '../../components/ui.tsx';

/** Available, held and total per asset, with the asset's decimals from the response. */
export function Balances() {
  const { sdk, t } = usePortal();
  const q = useQuery({ queryKey: ['balances'], queryFn: () => sdk.balances.list(), refetchInterval: 10_000 });
  return (
    <>
      <h1>{t('balances.title')}</h1>
      <ErrorBox error={q.error} />
      {q.isPending ? <Loading /> : q.data && (q.data.length === 0 ? <p>{t('balances.empty')}</p> : (
        <>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">{t('balances.title')}</caption>
              <thead><tr>
                <th scope="col">{t('common.asset')}</th>
                <th scope="col" className="num">{t('balances.available')}</th>
                <th scope="col" className="num">{t('balances.held')}</th>
                <th scope="col" className="num">{t('balances.total')}</th>
              </tr></thead>
              <tbody>
                {q.data.map((b) => (
                  <tr key={b.assetSymbol}>
                    <th scope="row">{b.assetSymbol}</th>
                    <td className="num" data-label={t('balances.available')}><Amount minor={b.amountMinor} decimals={b.assetDecimals} symbol={b.assetSymbol} /></td>
                    <td className="num" data-label={t('balances.held')}><Amount minor={b.heldMinor} decimals={b.assetDecimals} symbol={b.assetSymbol} /></td>
                    <td className="num" data-label={t('balances.total')}><Amount minor={b.totalMinor} decimals={b.assetDecimals} symbol={b.assetSymbol} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="small muted">{t('balances.heldHint')}</p>
          <ReadAt at={q.dataUpdatedAt} />
        </>
      ))}
    </>
  );
}
