import type { CreatedFilters, OrderFilters, WithdrawalFilters } from '@cambio/sdk';
import { ErrorBox, Field, SelectField } from '@cambio/web-kit';
import { useId, useState, type FormEvent } from 'react';
import { downloadText } from '../lib/download.ts';
import { stateWord } from '../lib/i18n.ts';
import { usePortal } from '../lib/portal-context.ts';

/** What a person chose to see of a list: a state ('' for every state) and a span of days ('' for open). */
export interface ListChoice {
  state: string;
  from: string;
  to: string;
}
export const ALL: ListChoice = { state: '', from: '', to: '' };

/** The chosen days as the API's creation window, in the person's time zone; `to` includes its whole day. */
export function createdWindow(c: ListChoice): CreatedFilters {
  const f: CreatedFilters = {};
  if (c.from) f.createdFrom = new Date(`${c.from}T00:00:00`);
  if (c.to) {
    const end = new Date(`${c.to}T00:00:00`);
    end.setDate(end.getDate() + 1);
    f.createdTo = end;
  }
  return f;
}

/** The states of an order and of a withdrawal (docs/design/money-and-states.md, and cancelled by the organization). */
export const REQUEST_STATES = ['pending_approval', 'approved', 'completed', 'rejected', 'failed', 'cancelled'] as const;

/** The chosen state and days as the filters of the orders or the withdrawals list. */
export function requestFilters(c: ListChoice): OrderFilters & WithdrawalFilters {
  return { ...createdWindow(c), ...(c.state ? { state: c.state as NonNullable<OrderFilters['state']> } : {}) };
}

/**
 * The filter form of a list (state, when `states` are given, and days), applied with a button so a
 * half-typed date never reads the list; Clear shows everything again.
 */
export function ListFilters({ label, states, onApply }: { label: string; states?: readonly string[]; onApply: (c: ListChoice) => void }) {
  const { t, lang } = usePortal();
  const [draft, setDraft] = useState<ListChoice>(ALL);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    onApply(draft);
  };
  return (
    <form className="card filters" onSubmit={apply} noValidate aria-label={label}>
      {states && (
        <SelectField
          label={t('common.state')}
          value={draft.state}
          onChange={(v) => setDraft((d) => ({ ...d, state: v }))}
          options={[{ value: '', label: t('filters.allStates') }, ...states.map((s) => ({ value: s, label: stateWord(lang, s) ?? s }))]}
        />
      )}
      <Field label={t('filters.from')} type="date" value={draft.from} onChange={(v) => setDraft((d) => ({ ...d, from: v }))} />
      <Field label={t('filters.to')} type="date" value={draft.to} onChange={(v) => setDraft((d) => ({ ...d, to: v }))} />
      <div className="buttons">
        <button type="submit">{t('filters.apply')}</button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setDraft(ALL);
            onApply(ALL);
          }}
        >
          {t('filters.clear')}
        </button>
      </div>
    </form>
  );
}

/** Downloads the whole filtered list as a CSV file (`csv` reads every page and writes the text). */
export function CsvDownload({ fileName, csv }: { fileName: string; csv: () => Promise<string> }) {
  const { t } = usePortal();
  const hint = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      downloadText(fileName, await csv(), 'text/csv');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <ErrorBox error={error} />
      <div className="buttons">
        <button type="button" className="secondary" onClick={() => void download()} disabled={busy} aria-describedby={hint}>
          {t('filters.csv')}
        </button>
        <span id={hint} className="small muted">
          {t('filters.csvHint')}
        </span>
      </div>
    </>
  );
}

/** A file name that says what was filtered: `orders-completed-2026-01-01-2026-01-31.csv`. */
export const csvName = (list: string, c: ListChoice): string => `${[list, c.state, c.from, c.to].filter(Boolean).join('-')}.csv`;
