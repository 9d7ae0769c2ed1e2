import { useQuery } from '@tanstack/react-query';
import { Amount, DataTable, ErrorBox, Loading, SelectField } from '@cambio/web-kit';
import { useState } from 'react';
import { usePortal } from '../../lib/portal-context.ts';
import { BalanceChart } from './BalanceChart.tsx';

/** Each asset's daily closing balance over the last 30 or 90 days: a chart and, on demand, the exact table. */
export function BalanceHistory() {
  const { sdk, t } = usePortal();
  const [days, setDays] = useState('30');
  const [asset, setAsset] = useState('');
  const h = useQuery({ queryKey: ['balance-history', days], queryFn: () => sdk.valuation.history(Number(days)) });
  if (h.isPending) return <Loading />;
  if (!h.data) return <ErrorBox error={h.error} />;
  const shown = h.data.assets.find((a) => a.assetSymbol === asset) ?? h.data.assets[0];
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">{t('history.title')}</h2>
      {!shown ? (
        <p>{t('balances.empty')}</p>
      ) : (
        <>
          <SelectField
            label={t('history.period')}
            value={days}
            onChange={setDays}
            options={[
              { value: '30', label: t('history.days', { days: '30' }) },
              { value: '90', label: t('history.days', { days: '90' }) },
            ]}
          />
          <SelectField
            label={t('common.asset')}
            value={shown.assetSymbol}
            onChange={setAsset}
            options={h.data.assets.map((a) => ({ value: a.assetSymbol, label: a.assetSymbol }))}
          />
          <BalanceChart symbol={shown.assetSymbol} decimals={shown.assetDecimals} points={shown.points} />
          <details>
            <summary>{t('history.table')}</summary>
            <DataTable
              caption={t('history.chartTitle', { asset: shown.assetSymbol })}
              rows={[...shown.points].reverse()}
              rowKey={(p) => p.date}
              columns={[
                { label: t('history.date'), rowHeader: true, cell: (p) => p.date },
                {
                  label: t('history.closing'),
                  num: true,
                  cell: (p) => <Amount minor={p.closingMinor} decimals={shown.assetDecimals} symbol={shown.assetSymbol} />,
                },
              ]}
            />
          </details>
        </>
      )}
    </section>
  );
}
