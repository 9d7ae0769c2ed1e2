import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Amount, DataTable, ErrorBox, Loading, SelectField } from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';

/**
 * Each balance and its estimated value in the organization's reporting currency, and the total
 * (docs/api-guide.md, Valuation): exact figures from the server, an asset without a price said so.
 */
export function Valuation() {
  const { sdk, t, can } = usePortal();
  const qc = useQueryClient();
  const v = useQuery({ queryKey: ['valuation'], queryFn: () => sdk.valuation.get(), refetchInterval: 15_000 });
  const pairs = useQuery({ queryKey: ['market-pairs'], queryFn: () => sdk.market.pairs() });
  const choose = useMutation({
    mutationFn: (reportingCurrency: string) => sdk.organization.setReporting({ reportingCurrency }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['valuation'] }),
  });
  if (v.isPending) return <Loading />;
  if (!v.data) return <ErrorBox error={v.error} />;
  const data = v.data;
  const currency = data.reportingCurrency;
  const symbols = [
    ...new Set([...(pairs.data ?? []).flatMap((p) => [p.baseSymbol, p.quoteSymbol]), ...data.balances.map((b) => b.assetSymbol)]),
  ].sort();
  return (
    <section aria-labelledby="valuation-title">
      <h2 id="valuation-title">{t('valuation.title')}</h2>
      {can('portal:team') ? (
        <SelectField
          label={t('valuation.currency')}
          value={currency ?? ''}
          onChange={(c) => choose.mutate(c)}
          options={[...(currency ? [] : [{ value: '', label: '—' }]), ...symbols.map((s) => ({ value: s, label: s }))]}
        />
      ) : (
        <p>
          {t('valuation.currency')}: <strong>{currency ?? '—'}</strong>
        </p>
      )}
      <ErrorBox error={choose.error} />
      <p className="muted">{t('valuation.estimate')}</p>
      {currency && data.reportingDecimals !== null && (
        <>
          <DataTable
            caption={t('valuation.caption')}
            rows={data.balances}
            rowKey={(b) => b.assetSymbol}
            columns={[
              { label: t('common.asset'), rowHeader: true, cell: (b) => b.assetSymbol },
              {
                label: t('balances.total'),
                num: true,
                cell: (b) => <Amount minor={b.totalMinor} decimals={b.assetDecimals} symbol={b.assetSymbol} />,
              },
              {
                label: t('valuation.value'),
                num: true,
                cell: (b) =>
                  b.valueMinor === null ? (
                    t('valuation.noPrice')
                  ) : (
                    <Amount minor={b.valueMinor} decimals={data.reportingDecimals!} symbol={currency} />
                  ),
              },
            ]}
          />
          <p>
            {t('valuation.total')}:{' '}
            <strong>
              <Amount minor={data.totalValueMinor ?? 0n} decimals={data.reportingDecimals} symbol={currency} />
            </strong>
          </p>
          {data.unpriced.length > 0 && <p className="small muted">{t('valuation.unpriced', { assets: data.unpriced.join(', ') })}</p>}
        </>
      )}
    </section>
  );
}
