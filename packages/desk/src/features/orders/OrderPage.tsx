import type { OperatorOrderDetail } from '@cambio/sdk';
import { useQuery } from '@tanstack/react-query';
import { Amount, ErrorBox, Loading } from '@cambio/web-kit';
import { Empty, Page } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { Link } from '../../lib/router.ts';
import { when } from '../../lib/time.ts';
import { t } from '../../lib/i18n.ts';

type Offer = OperatorOrderDetail['offers'][number];

/**
 * One exchange request and its best execution (docs/market.md, "Several venues"): what each connected
 * venue offered when it was quoted, in the order the venues are listed, which one it took (where it
 * executes), and why a venue was left out.
 */
export function OrderPage({ id }: { id: string }) {
  const q = useQuery({ queryKey: ['order', id], queryFn: () => op.orders.get(id) });
  const o = q.data;
  return (
    <Page title={t('order.title', { id })} intro={t('order.intro')}>
      {q.isPending ? (
        <Loading what={t('order.loading')} />
      ) : q.error ? (
        <ErrorBox error={q.error} />
      ) : !o ? null : (
        <>
          <section aria-labelledby="order-facts" className="panel">
            <h2 id="order-facts">{t('order.facts')}</h2>
            <dl className="facts">
              <dt>{t('common.state')}</dt>
              <dd>
                <span className={`badge badge-${o.state}`}>{o.state}</span>
              </dd>
              <dt>{t('order.organization')}</dt>
              <dd>
                <Link to={`/organizations/${encodeURIComponent(o.organizationId)}`}>{o.organizationId}</Link>
              </dd>
              <dt>{t('order.delivers')}</dt>
              <dd>
                <Amount minor={o.base.amountMinor} decimals={o.base.assetDecimals} symbol={o.base.assetSymbol} />
              </dd>
              <dt>{t('order.receives')}</dt>
              <dd>
                <Amount minor={o.quote.amountMinor} decimals={o.quote.assetDecimals} symbol={o.quote.assetSymbol} />
              </dd>
              <dt>{t('order.venue')}</dt>
              <dd>{o.venue ?? '—'}</dd>
              <dt>{t('order.created')}</dt>
              <dd>{when(o.createdAt)}</dd>
            </dl>
          </section>
          <section aria-labelledby="order-offers">
            <h2 id="order-offers">{t('order.offers')}</h2>
            {o.offers.length === 0 ? (
              <Empty>{t('order.noOffers')}</Empty>
            ) : (
              // Focusable: on a narrow screen the table scrolls sideways, and a keyboard must reach it.
              <table tabIndex={0}>
                <caption>{t('order.offersCaption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('order.offerVenue')}</th>
                    <th scope="col" className="num">
                      {t('order.offerBase')}
                    </th>
                    <th scope="col" className="num">
                      {t('order.offerQuote')}
                    </th>
                    <th scope="col" className="num">
                      {t('order.offerProceeds')}
                    </th>
                    <th scope="col">{t('order.offerOutcome')}</th>
                  </tr>
                </thead>
                <tbody>
                  {o.offers.map((f) => (
                    <tr key={f.venue} className={f.chosen ? 'chosen' : undefined}>
                      <th scope="row">{f.venue}</th>
                      <td className="num">{figure(f.amountBaseMinor, o.base.assetDecimals, o.base.assetSymbol)}</td>
                      <td className="num">{figure(f.amountQuoteMinor, o.quote.assetDecimals, o.quote.assetSymbol)}</td>
                      <td className="num">{figure(f.proceedsQuoteMinor, o.quote.assetDecimals, o.quote.assetSymbol)}</td>
                      <td>{outcome(f)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      )}
    </Page>
  );
}

const figure = (minor: bigint | null, decimals: number, symbol: string) =>
  minor === null ? '—' : <Amount minor={minor} decimals={decimals} symbol={symbol} />;

function outcome(f: Offer) {
  if (f.chosen) return <span className="badge badge-ok">{t('order.chosen')}</span>;
  if (f.leftOut === null) return t('order.notBest');
  return (
    <>
      {t('order.leftOut')} <code>{f.leftOut}</code>
      {f.detail && <span className="small"> {f.detail}</span>}
    </>
  );
}
