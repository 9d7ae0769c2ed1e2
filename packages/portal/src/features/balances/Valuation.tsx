import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Amount, ErrorBox, Loading, SelectField, ValuationTable } from '@cambio/web-kit';
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
          <ValuationTable
            rows={data.balances}
            currency={currency}
            currencyDecimals={data.reportingDecimals}
            texts={{
              caption: t('valuation.caption'),
              asset: t('common.asset'),
              balance: t('balances.total'),
              value: t('valuation.value'),
              noPrice: t('valuation.noPrice'),
            }}
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
