import { useQuery } from '@tanstack/react-query';
import { StatementDownload } from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';

/** A month's statement of one of the organization's assets, downloaded as CSV or PDF (docs/api-guide.md, Statements). */
export function Statements() {
  const { sdk, t } = usePortal();
  const balances = useQuery({ queryKey: ['balances'], queryFn: () => sdk.balances.list() });
  return (
    <StatementDownload
      symbols={(balances.data ?? []).map((b) => b.assetSymbol)}
      read={(asset, month, format) =>
        format === 'pdf'
          ? sdk.statements.download(asset, month, { format: 'pdf' })
          : sdk.statements.download(asset, month, { format: 'csv' })
      }
      texts={{
        title: t('statements.title'),
        hint: t('statements.hint'),
        asset: t('common.asset'),
        month: t('statements.month'),
        csv: t('statements.csv'),
        pdf: t('statements.pdf'),
      }}
    />
  );
}
