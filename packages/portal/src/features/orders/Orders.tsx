import { Amount, StateBadge } from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';
import { PagedTable } from '../../components/PagedTable.tsx';
import { DateTime } from '../../components/ui.tsx';

/** Exchange requests, newest first, paged; refreshes by itself while one waits for the operator. */
export function Orders() {
  const { sdk, t } = usePortal();
  return (
    <>
      <h1>{t('orders.title')}</h1>
      <PagedTable caption={t('orders.title')} queryKey="orders" read={(p) => sdk.orders.list(p)}
        waiting={(o) => o.state === 'pending_approval' || o.state === 'approved'}
        columns={[
          { label: t('common.created'), cell: (o) => <DateTime iso={o.createdAt} /> },
          { label: t('orders.deliver'), num: true, cell: (o) => <Amount minor={o.base.amountMinor} decimals={o.base.assetDecimals} symbol={o.base.assetSymbol} /> },
          { label: t('orders.receive'), num: true, cell: (o) => <Amount minor={o.quote.amountMinor} decimals={o.quote.assetDecimals} symbol={o.quote.assetSymbol} /> },
          { label: t('common.state'), cell: (o) => <><StateBadge state={o.state} />{o.reason && <span className="small"> — {o.reason}</span>}</> },
        ]} />
    </>
  );
}
