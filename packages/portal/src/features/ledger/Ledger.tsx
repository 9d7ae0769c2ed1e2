import { Amount } from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';
import { PagedTable } from '../../components/PagedTable.tsx';
import { DateTime } from '../../components/ui.tsx';
import { LogMark } from '../transparency/LogMark.tsx';
import { text } from '../transparency/texts.ts';

/** Every movement of the organization's accounts, newest first, paged. */
export function Ledger() {
  const { sdk, t, lang } = usePortal();
  return (
    <>
      <h1>{t('ledger.title')}</h1>
      <PagedTable caption={t('ledger.title')} queryKey="ledger" limit={20} read={(p) => sdk.ledger.list(p)}
        columns={[
          { label: t('common.created'), cell: (e) => <DateTime iso={e.createdAt} /> },
          { label: t('ledger.kind'), cell: (e) => <>{e.kind}{e.memo ? <span className="small"> — {e.memo}</span> : null}</> },
          { label: t('ledger.account'), cell: (e) => e.account },
          { label: t('common.amount'), num: true, cell: (e) => <Amount minor={e.amountMinor} decimals={e.assetDecimals} symbol={e.assetSymbol} /> },
          { label: text(lang, 'column'), cell: (e) => <LogMark entryId={e.entryId} /> },
        ]} />
    </>
  );
}
