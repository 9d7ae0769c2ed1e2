import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { ErrorBox, Field, formatDateTime, isFiat, Loading, SelectField, useActionKey } from '@cambio/web-kit';
import { summaryWords } from '../../lib/i18n.ts';
import { usePortal } from '../../lib/portal-context.ts';
import { Notice } from '../../components/ui.tsx';
import { CryptoDestinationForm } from './CryptoDestinationForm.tsx';
import { usePaused } from '../../lib/paused.ts';

const EMPTY = { label: '', assetSymbol: '', bankName: '', accountKind: 'checking', accountNumber: '', holderName: '', holderDocument: '' };

/**
 * Destinations: bank accounts (masked) and crypto addresses (whole, with their network), cooling down
 * until `usable` (read, never deduced); register a new one of either kind.
 */
export function Destinations() {
  const { sdk, t, can } = usePortal();
  const act = useActionKey();
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: ['destinations'],
    queryFn: () => sdk.withdrawals.destinations(),
    refetchInterval: (q) => (q.state.data?.some((d) => !d.usable) ? 5_000 : false),
  });
  const balances = useQuery({ queryKey: ['balances'], queryFn: () => sdk.balances.list() });
  const waiting = useQuery({
    queryKey: ['destinations-waiting', list.dataUpdatedAt],
    queryFn: () => sdk.organization.destinationsWaiting(),
    enabled: (list.data ?? []).some((d) => !d.usable),
  });
  const waitOf = (id: string) => waiting.data?.find((w) => w.id === id);
  const [form, setForm] = useState(EMPTY);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  const paused = usePaused();
  const set = (k: keyof typeof EMPTY) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  // A bank account receives a national currency: only those are offered, none picked for the person.
  const fiat = (balances.data ?? []).filter((b) => isFiat(b.assetSymbol));
  const assetSym = form.assetSymbol || fiat[0]?.assetSymbol || '';
  const REQUIRED = {
    label: 'withdrawals.label',
    bankName: 'withdrawals.bankName',
    accountNumber: 'withdrawals.accountNumber',
    holderName: 'withdrawals.holderName',
    holderDocument: 'withdrawals.holderDocument',
  } as const;
  const missing = (k: keyof typeof REQUIRED) =>
    touched && form[k].trim() === '' ? t('form.required', { field: t(REQUIRED[k]).toLowerCase() }) : null;

  const register = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (paused || !assetSym || (Object.keys(REQUIRED) as Array<keyof typeof REQUIRED>).some((k) => form[k].trim() === '')) return;
    setBusy(true);
    setError(null);
    setDone(false);
    try {
      const body = {
        label: form.label.trim(),
        assetSymbol: assetSym,
        bankName: form.bankName.trim(),
        accountKind: form.accountKind as 'checking' | 'savings',
        accountNumber: form.accountNumber.trim(),
        holderName: form.holderName.trim(),
        holderDocument: form.holderDocument.trim(),
      };
      await act.run(body, (idempotencyKey) => sdk.withdrawals.registerBankDestination(body, { idempotencyKey }));
      setForm(EMPTY);
      setTouched(false);
      setDone(true);
      await qc.invalidateQueries({ queryKey: ['destinations'] });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="dest-h">
      <h2 id="dest-h">{t('withdrawals.destinations')}</h2>
      <ErrorBox error={list.error} />
      {list.isPending ? (
        <Loading />
      ) : (list.data ?? []).length === 0 ? (
        <p>{t('common.none')}</p>
      ) : (
        <ul className="destinations">
          {(list.data ?? []).map((d) => (
            <li key={d.id} className="card">
              <strong>{d.label}</strong> <span className="muted">{d.assetSymbol}</span>
              {d.kind === 'crypto' && (
                <>
                  {' '}
                  <span className="badge" aria-label={t('withdrawals.networkOf', { network: d.network ?? '' })}>
                    {d.network}
                  </span>
                </>
              )}
              <p className="small">
                <code className="address">{d.kind === 'crypto' ? d.address : summaryWords(t, d.summary)}</code>
              </p>
              {d.usable ? (
                <span className="badge badge-completed">{t('withdrawals.usable')}</span>
              ) : (
                <NotUsableYet cooldownEndsAt={waitOf(d.id)?.cooldownEndsAt} awaitingOperator={waitOf(d.id)?.awaitingOperator} />
              )}
            </li>
          ))}
        </ul>
      )}
      {can('portal:destinations') && (
        <details className="card">
          <summary>{t('withdrawals.register')}</summary>
          <ErrorBox
            error={error}
            fields={{
              label: t('withdrawals.label'),
              bankName: t('withdrawals.bankName'),
              accountNumber: t('withdrawals.accountNumber'),
              holderName: t('withdrawals.holderName'),
              holderDocument: t('withdrawals.holderDocument'),
            }}
          />
          {done && <Notice tone="success">{t('withdrawals.registered')}</Notice>}
          <form onSubmit={register} noValidate>
            <Field label={t('withdrawals.label')} value={form.label} onChange={set('label')} error={missing('label')} required />
            {fiat.length === 0 ? (
              <p className="inline-error">{t('withdrawals.noFiat')}</p>
            ) : (
              <SelectField
                label={t('common.asset')}
                value={assetSym}
                onChange={set('assetSymbol')}
                hint={t('withdrawals.fiatOnly')}
                options={fiat.map((b) => ({ value: b.assetSymbol, label: b.assetSymbol }))}
              />
            )}
            <Field
              label={t('withdrawals.bankName')}
              value={form.bankName}
              onChange={set('bankName')}
              error={missing('bankName')}
              required
            />
            <SelectField
              label={t('withdrawals.accountKind')}
              value={form.accountKind}
              onChange={set('accountKind')}
              options={[
                { value: 'checking', label: t('withdrawals.checking') },
                { value: 'savings', label: t('withdrawals.savings') },
              ]}
            />
            <Field
              label={t('withdrawals.accountNumber')}
              value={form.accountNumber}
              onChange={set('accountNumber')}
              inputMode="numeric"
              autoComplete="off"
              error={missing('accountNumber')}
              required
            />
            <Field
              label={t('withdrawals.holderName')}
              value={form.holderName}
              onChange={set('holderName')}
              error={missing('holderName')}
              required
            />
            <Field
              label={t('withdrawals.holderDocument')}
              value={form.holderDocument}
              onChange={set('holderDocument')}
              error={missing('holderDocument')}
              required
            />
            {paused && (
              <p className="small" id="dest-paused">
                {t('app.pausedAction')}
              </p>
            )}
            <button type="submit" disabled={busy || paused} aria-describedby={paused ? 'dest-paused' : undefined}>
              {t('withdrawals.registerSubmit')}
            </button>
          </form>
        </details>
      )}
      {can('portal:destinations') && <CryptoDestinationForm />}
    </section>
  );
}

/**
 * Why a destination is not usable yet, each reason on its own: until when it cools down (rounded up to
 * the minute, so the time shown is never early) and, separately, that the operator has still to register it.
 */
function NotUsableYet({ cooldownEndsAt, awaitingOperator }: { cooldownEndsAt?: string; awaitingOperator?: boolean }) {
  const { t, lang } = usePortal();
  const [now, setNow] = useState(() => Date.now());
  const ends = cooldownEndsAt ? Date.parse(cooldownEndsAt) : null;
  const cooling = ends !== null && ends > now;
  useEffect(() => {
    if (!cooling || ends === null) return;
    const id = setTimeout(() => setNow(Date.now()), Math.min(ends - Date.now() + 50, 60_000));
    return () => clearTimeout(id);
  }, [cooling, ends, now]);
  const reasons: string[] = [];
  if (cooling) {
    const at = new Date(ends + ((60_000 - (ends % 60_000)) % 60_000));
    const today = new Date(now).toDateString() === at.toDateString();
    const time = today ? new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit' }).format(at) : formatDateTime(at, lang);
    reasons.push(t('withdrawals.usableFrom', { time }));
  }
  if (awaitingOperator) reasons.push(t('withdrawals.awaitingOperator'));
  if (reasons.length === 0) reasons.push(t('withdrawals.coolingDown'));
  return (
    <>
      {reasons.map((r) => (
        <span key={r} className="badge badge-pending_approval">
          {r}
        </span>
      ))}
    </>
  );
}
