import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Field, isFiat, SelectField, useActionKey } from '@cambio/web-kit';
import { summaryWords } from '../../lib/i18n.ts';
import { usePortal } from '../../lib/portal-context.ts';
import { ErrorBox, Loading, Notice } from '../../components/ui.tsx';
import { CryptoDestinationForm } from './CryptoDestinationForm.tsx';

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
    refetchInterval: (q) => (q.state.data?.some((d) => !d.usable) ? 15_000 : false),
  });
  const balances = useQuery({ queryKey: ['balances'], queryFn: () => sdk.balances.list() });
  const [form, setForm] = useState(EMPTY);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
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
    if (!assetSym || (Object.keys(REQUIRED) as Array<keyof typeof REQUIRED>).some((k) => form[k].trim() === '')) return;
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
              <span className={`badge ${d.usable ? 'badge-completed' : 'badge-pending_approval'}`}>
                {d.usable ? t('withdrawals.usable') : t('withdrawals.coolingDown')}
              </span>
            </li>
          ))}
        </ul>
      )}
      {can('portal:destinations') && (
        <details className="card">
          <summary>{t('withdrawals.register')}</summary>
          <ErrorBox error={error} />
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
            <button type="submit" disabled={busy}>
              {t('withdrawals.registerSubmit')}
            </button>
          </form>
        </details>
      )}
      {can('portal:destinations') && <CryptoDestinationForm />}
    </section>
  );
}
