import { useQuery } from '@tanstack/react-query';
import { Amount, formatMoney, StateBadge } from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';
import { DateTime, ErrorBox, Loading } from '../../components/ui.tsx';
import { Link } from '../../lib/router.ts';

/** One order: what it delivers and receives, at which rate, from which quote, and what happened when. */
export function OrderDetail({ id }: { id: string }) {
  const { sdk, t, lang } = usePortal();
  const order = useQuery({
    queryKey: ['orders', 'one', id], queryFn: () => sdk.orders.get(id),
    refetchInterval: (q) => (q.state.data && (q.state.data.state === 'pending_approval' || q.state.data.state === 'approved') ? 3000 : false),
  });
  const quote = useQuery({ queryKey: ['quote', order.data?.quoteId], queryFn: () => sdk.quotes.get(order.data!.quoteId), enabled: !!order.data, retry: false });
  const o = order.data;
  return (
    <>
      <p><Link to="/orders">{t('order.back')}</Link></p>
      <h1>{t('order.title')}</h1>
      <ErrorBox error={order.error} />
      {order.isPending ? <Loading /> : o && (
        <>
          <dl className="summary card">
            <dt>{t('common.state')}</dt><dd><StateBadge state={o.state} />{o.reason && <span className="small"> — {o.reason}</span>}</dd>
            <dt>{t('exchange.deliver')}</dt><dd><Amount minor={o.base.amountMinor} decimals={o.base.assetDecimals} symbol={o.base.assetSymbol} /></dd>
            <dt>{t('exchange.receive')}</dt><dd><Amount minor={o.quote.amountMinor} decimals={o.quote.assetDecimals} symbol={o.quote.assetSymbol} /></dd>
            <dt>{t('order.rate')}</dt>
            <dd>{t('exchange.rateText', { base: o.base.assetSymbol, rate: formatMoney(o.rateQuoteMinor, o.quote.assetDecimals, lang), quote: o.quote.assetSymbol })}</dd>
            <dt>{t('order.quote')}</dt><dd><code className="break">{o.quoteId}</code></dd>
            {quote.data && <><dt>{t('order.quoteExpires')}</dt><dd><DateTime iso={quote.data.expiresAt} /></dd></>}
          </dl>
          <section aria-labelledby="timeline-h">
            <h2 id="timeline-h">{t('order.timeline')}</h2>
            <ol className="timeline">
              <li><DateTime iso={o.createdAt} /> — {t('order.created')}</li>
              {o.updatedAt !== o.createdAt && <li><DateTime iso={o.updatedAt} /> — <StateBadge state={o.state} /></li>}
            </ol>
          </section>
        </>
      )}
    </>
  );
}
