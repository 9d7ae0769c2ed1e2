import { useQuery } from '@tanstack/react-query';
import { StatementDownload } from '@cambio/web-kit';
import { op } from '../../lib/api.ts';
import { t } from '../../lib/i18n.ts';

/** The organization's monthly statement of one asset, CSV or PDF, in the organization's language (docs/operator-guide.md). */
export function StatementsPanel({ id }: { id: string }) {
  const balances = useQuery({ queryKey: ['organization', id, 'balances'], queryFn: () => op.organizations.balances(id) });
  const statements = op.organizations.statements(id);
  return (
    <div className="panel">
      <StatementDownload
        symbols={(balances.data ?? []).map((b) => b.assetSymbol)}
        read={(asset, month, format) =>
          format === 'pdf' ? statements.download(asset, month, { format: 'pdf' }) : statements.download(asset, month, { format: 'csv' })
        }
        texts={{
          title: t('statements.title'),
          hint: t('statements.hint'),
          asset: t('valuation.asset'),
          month: t('statements.month'),
          csv: t('statements.csv'),
          pdf: t('statements.pdf'),
        }}
      />
    </div>
  );
}
