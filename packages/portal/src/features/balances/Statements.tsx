import { useMutation, useQuery } from '@tanstack/react-query';
import { ErrorBox, SelectField } from '@cambio/web-kit';
import { useId, useState } from 'react';
import { downloadText } from '../../lib/download.ts';
import { usePortal } from '../../lib/portal-context.ts';

/** A month's statement of one asset, downloaded as CSV or PDF (docs/api-guide.md, Statements). */
export function Statements() {
  const { sdk, t } = usePortal();
  const balances = useQuery({ queryKey: ['balances'], queryFn: () => sdk.balances.list() });
  const [asset, setAsset] = useState('');
  const [month, setMonth] = useState(new Date().toISOString().slice(0, 7));
  const monthId = useId();
  const symbols = (balances.data ?? []).map((b) => b.assetSymbol);
  const chosen = asset || symbols[0] || '';
  const download = useMutation({
    mutationFn: async (format: 'csv' | 'pdf') => {
      const name = `statement-${chosen}-${month}.${format}`;
      if (format === 'csv') downloadText(name, await sdk.statements.download(chosen, month, { format: 'csv' }), 'text/csv');
      else {
        const bytes = await sdk.statements.download(chosen, month, { format: 'pdf' });
        const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/pdf' }));
        const a = document.createElement('a');
        a.href = url;
        a.download = name;
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      }
    },
  });
  return (
    <section aria-labelledby="statements-title">
      <h2 id="statements-title">{t('statements.title')}</h2>
      <p className="muted">{t('statements.hint')}</p>
      <SelectField label={t('common.asset')} value={chosen} onChange={setAsset} options={symbols.map((s) => ({ value: s, label: s }))} />
      <div className="field">
        <label htmlFor={monthId}>{t('statements.month')}</label>
        <input id={monthId} type="month" value={month} onChange={(e) => setMonth(e.target.value)} />
      </div>
      <div className="actions">
        <button type="button" disabled={!chosen || download.isPending} onClick={() => download.mutate('csv')}>
          {t('statements.csv')}
        </button>{' '}
        <button type="button" disabled={!chosen || download.isPending} onClick={() => download.mutate('pdf')}>
          {t('statements.pdf')}
        </button>
      </div>
      <ErrorBox error={download.error} />
    </section>
  );
}
