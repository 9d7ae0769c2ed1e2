import { useId, useState } from 'react';
import { downloadFile } from './download.ts';
import { ErrorBox } from './ErrorBox.tsx';
import { SelectField } from './Field.tsx';

export type StatementFormat = 'csv' | 'pdf';

/**
 * A month's statement of one asset, downloaded as CSV or PDF (docs/api-guide.md, Statements): the portal
 * reads the member's own, the desk an organization's; `read` says which.
 */
export function StatementDownload({
  symbols,
  read,
  texts,
}: {
  symbols: string[];
  read: (assetSymbol: string, month: string, format: StatementFormat) => Promise<string | Uint8Array>;
  texts: { title: string; hint: string; asset: string; month: string; csv: string; pdf: string };
}) {
  const [asset, setAsset] = useState('');
  const [month, setMonth] = useState(new Date().toISOString().slice(0, 7));
  const monthId = useId();
  const titleId = useId();
  const chosen = asset || symbols[0] || '';
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const download = async (format: StatementFormat) => {
    setPending(true);
    setError(null);
    try {
      const data = await read(chosen, month, format);
      downloadFile(`statement-${chosen}-${month}.${format}`, data, format === 'csv' ? 'text/csv' : 'application/pdf');
    } catch (e) {
      setError(e);
    } finally {
      setPending(false);
    }
  };
  return (
    <section aria-labelledby={titleId}>
      <h2 id={titleId}>{texts.title}</h2>
      <p className="muted">{texts.hint}</p>
      <SelectField label={texts.asset} value={chosen} onChange={setAsset} options={symbols.map((s) => ({ value: s, label: s }))} />
      <div className="field">
        <label htmlFor={monthId}>{texts.month}</label>
        <input id={monthId} type="month" value={month} onChange={(e) => setMonth(e.target.value)} />
      </div>
      <div className="actions">
        <button type="button" disabled={!chosen || pending} onClick={() => void download('csv')}>
          {texts.csv}
        </button>{' '}
        <button type="button" disabled={!chosen || pending} onClick={() => void download('pdf')}>
          {texts.pdf}
        </button>
      </div>
      <ErrorBox error={error} />
    </section>
  );
}
