import { useQuery } from '@tanstack/react-query';
import type { LedgerFilters } from '@cambio/sdk';
import { Amount, ErrorBox, Field, SelectField } from '@cambio/web-kit';
import { useState, type FormEvent } from 'react';
import { accountWord, kindWord } from '../../lib/i18n.ts';
import { downloadText } from '../../lib/download.ts';
import { usePortal } from '../../lib/portal-context.ts';
import { PagedTable } from '../../components/PagedTable.tsx';
import { DateTime } from '../../components/ui.tsx';
import { LogMark } from '../transparency/LogMark.tsx';
import { LogWarning } from '../transparency/LogWarning.tsx';
import { text } from '../transparency/texts.ts';

interface Chosen {
  asset: string;
  from: string;
  to: string;
}
const NONE: Chosen = { asset: '', from: '', to: '' };

/** The chosen days as the API's creation window, in the person's time zone; `to` includes its whole day. */
function filtersOf(c: Chosen): LedgerFilters {
  const f: LedgerFilters = {};
  if (c.asset) f.assetSymbol = c.asset;
  if (c.from) f.createdFrom = new Date(`${c.from}T00:00:00`);
  if (c.to) {
    const end = new Date(`${c.to}T00:00:00`);
    end.setDate(end.getDate() + 1);
    f.createdTo = end;
  }
  return f;
}

/** Every movement of the organization's accounts, newest first, paged; filtered by asset and days; as CSV. */
export function Ledger() {
  const { sdk, t, lang } = usePortal();
  const balances = useQuery({ queryKey: ['balances'], queryFn: () => sdk.balances.list() });
  const [draft, setDraft] = useState<Chosen>(NONE);
  const [applied, setApplied] = useState<Chosen>(NONE);
  const [csvError, setCsvError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const filters = filtersOf(applied);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setApplied(draft);
  };
  const download = async () => {
    setBusy(true);
    setCsvError(null);
    try {
      downloadText(`ledger${applied.asset ? `-${applied.asset}` : ''}.csv`, await sdk.ledger.csv(filters), 'text/csv');
    } catch (err) {
      setCsvError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <h1>{t('ledger.title')}</h1>
      <LogWarning />
      <form className="card filters" onSubmit={apply} noValidate aria-label={t('ledger.filters')}>
        <SelectField
          label={t('common.asset')}
          value={draft.asset}
          onChange={(v) => setDraft((d) => ({ ...d, asset: v }))}
          options={[
            { value: '', label: t('ledger.allAssets') },
            ...(balances.data ?? []).map((b) => ({ value: b.assetSymbol, label: b.assetSymbol })),
          ]}
        />
        <Field label={t('ledger.from')} type="date" value={draft.from} onChange={(v) => setDraft((d) => ({ ...d, from: v }))} />
        <Field label={t('ledger.to')} type="date" value={draft.to} onChange={(v) => setDraft((d) => ({ ...d, to: v }))} />
        <div className="buttons">
          <button type="submit">{t('ledger.apply')}</button>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setDraft(NONE);
              setApplied(NONE);
            }}
          >
            {t('ledger.clear')}
          </button>
        </div>
      </form>
      <ErrorBox error={csvError} />
      <div className="buttons">
        <button type="button" className="secondary" onClick={() => void download()} disabled={busy} aria-describedby="csv-hint">
          {t('ledger.csv')}
        </button>
        <span id="csv-hint" className="small muted">
          {t('ledger.csvHint')}
        </span>
      </div>
      <PagedTable
        caption={t('ledger.title')}
        queryKey="ledger"
        filterKey={JSON.stringify(applied)}
        limit={20}
        read={(p) => sdk.ledger.list({ ...p, ...filters })}
        columns={[
          { label: t('common.created'), cell: (e) => <DateTime iso={e.createdAt} /> },
          {
            label: t('ledger.kind'),
            cell: (e) => (
              <>
                {kindWord(lang, e.kind)}
                {e.memo ? <span className="small"> — {e.memo}</span> : null}
              </>
            ),
          },
          { label: t('ledger.account'), cell: (e) => accountWord(lang, e.account) },
          {
            label: t('common.amount'),
            num: true,
            cell: (e) => <Amount minor={e.amountMinor} decimals={e.assetDecimals} symbol={e.assetSymbol} />,
          },
          { label: text(lang, 'column'), cell: (e) => <LogMark row={e} /> },
        ]}
      />
    </>
  );
}
