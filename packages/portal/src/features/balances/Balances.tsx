import { useQuery } from '@tanstack/react-query';
import { Amount, DataTable, ErrorBox, Loading, ReadAt } from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';
import { LiabilitiesCheck } from '../transparency/LiabilitiesCheck.tsx';
import { BalanceHistory } from './BalanceHistory.tsx';
import { Statements } from './Statements.tsx';
import { Valuation } from './Valuation.tsx';

/** Available, held and total per asset, with the asset's decimals from the response. */
export function Balances() {
  const { sdk, t } = usePortal();
  const q = useQuery({ queryKey: ['balances'], queryFn: () => sdk.balances.list(), refetchInterval: 10_000 });
  return (
    <>
      <h1>{t('balances.title')}</h1>
      <ErrorBox error={q.error} />
      {q.isPending ? (
        <Loading />
      ) : (
        q.data &&
        (q.data.length === 0 ? (
          <p>{t('balances.empty')}</p>
        ) : (
          <>
            <DataTable
              caption={t('balances.title')}
              rows={q.data}
              rowKey={(b) => b.assetSymbol}
              columns={[
                { label: t('common.asset'), rowHeader: true, cell: (b) => b.assetSymbol },
                {
                  label: t('balances.available'),
                  num: true,
                  cell: (b) => <Amount minor={b.amountMinor} decimals={b.assetDecimals} symbol={b.assetSymbol} />,
                },
                {
                  label: t('balances.held'),
                  num: true,
                  cell: (b) => <Amount minor={b.heldMinor} decimals={b.assetDecimals} symbol={b.assetSymbol} />,
                },
                {
                  label: t('balances.total'),
                  num: true,
                  cell: (b) => <Amount minor={b.totalMinor} decimals={b.assetDecimals} symbol={b.assetSymbol} />,
                },
              ]}
            />
            <p className="small muted">{t('balances.heldHint')}</p>
            <ReadAt at={q.dataUpdatedAt} />
            <Valuation />
            <BalanceHistory />
            <Statements />
            <LiabilitiesCheck />
          </>
        ))
      )}
    </>
  );
}
