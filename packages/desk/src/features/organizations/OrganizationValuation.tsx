import { useQuery } from '@tanstack/react-query';
import { Amount, DataTable, ErrorBox, Loading, ValuationTable } from '@cambio/web-kit';
import { op } from '../../lib/api.ts';
import { t } from '../../lib/i18n.ts';

/**
 * The organization's balances valued in its reporting currency, as its members read them, and each
 * asset's closing balance over the last 30 days (docs/api-guide.md, Valuation and statements): exact figures.
 */
export function ValuationPanel({ id }: { id: string }) {
  const v = useQuery({
    queryKey: ['organization', id, 'valuation'],
    queryFn: () => op.organizations.valuation(id),
    refetchInterval: 15_000,
  });
  const h = useQuery({ queryKey: ['organization', id, 'history'], queryFn: () => op.organizations.balanceHistory(id, 30) });
  const data = v.data;
  return (
    <section aria-labelledby="valuation-title" className="panel">
      <h2 id="valuation-title">{t('valuation.title')}</h2>
      <p className="intro">{t('valuation.estimate')}</p>
      <ErrorBox error={v.error ?? h.error} />
      {v.isPending ? (
        <Loading />
      ) : data && data.reportingCurrency && data.reportingDecimals !== null ? (
        <>
          <ValuationTable
            rows={data.balances}
            currency={data.reportingCurrency}
            currencyDecimals={data.reportingDecimals}
            texts={{
              caption: `${t('valuation.caption')} (${data.reportingCurrency})`,
              asset: t('valuation.asset'),
              balance: t('valuation.balance'),
              value: t('valuation.value'),
              noPrice: t('valuation.noPrice'),
            }}
          />
          <p>
            {t('valuation.total')}:{' '}
            <strong>
              <Amount minor={data.totalValueMinor ?? 0n} decimals={data.reportingDecimals} symbol={data.reportingCurrency} />
            </strong>
            {data.unpriced.length > 0 && ` — ${t('valuation.unpriced')} ${data.unpriced.join(', ')}`}
          </p>
        </>
      ) : (
        <p>{t('valuation.none')}</p>
      )}
      {h.data && (
        <details>
          <summary>{t('valuation.history')}</summary>
          {h.data.assets.map((a) => (
            <DataTable
              key={a.assetSymbol}
              caption={`${t('valuation.history')} — ${a.assetSymbol}`}
              rows={[...a.points].reverse()}
              rowKey={(p) => p.date}
              columns={[
                { label: t('valuation.day'), rowHeader: true, cell: (p) => p.date },
                {
                  label: t('valuation.closing'),
                  num: true,
                  cell: (p) => <Amount minor={p.closingMinor} decimals={a.assetDecimals} symbol={a.assetSymbol} />,
                },
              ]}
            />
          ))}
        </details>
      )}
    </section>
  );
}
