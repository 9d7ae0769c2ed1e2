import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Field, SelectField, useActionKey } from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';
import { ErrorBox, Loading, Notice } from '../../components/ui.tsx';

const EMPTY = { label: '', assetSymbol: '', bankName: '', accountKind: 'checking', accountNumber: '', holderName: '', holderDocument: '' };

/** Bank destinations: masked, cooling down until `usable` (read, never deduced); register a new one. */
export function Destinations() {
  const { sdk, t, can } = usePortal();
  const act = useActionKey();
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: ['destinations'], queryFn: () => sdk.withdrawals.destinations(),
    refetchInterval: (q) => (q.state.data?.some((d) => !d.usable) ? 15_000 : false),
  });
  const balances = useQuery({ queryKey: ['balances'], queryFn: () => sdk.balances.list() });
  const [form, setForm] = useState(EMPTY);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof EMPTY) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  const assetSym = form.assetSymbol || balances.data?.[0]?.assetSymbol || '';

  const register = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true); setError(null); setDone(false);
    try {
      const body = { ...form, assetSymbol: assetSym, accountKind: form.accountKind as 'checking' | 'savings' };
      await act.run(body, (idempotencyKey) => sdk.withdrawals.registerBankDestination(body, { idempotencyKey }));
      setForm(EMPTY); setDone(true);
      await qc.invalidateQueries({ queryKey: ['destinations'] });
    } catch (err) { setError(err); } finally { setBusy(false); }
  };

  return (
    <section aria-labelledby="dest-h">
      <h2 id="dest-h">{t('withdrawals.destinations')}</h2>
      <ErrorBox error={list.error} />
      {list.isPending ? <Loading /> : (list.data ?? []).length === 0 ? <p>{t('common.none')}</p> : (
        <ul className="destinations">
          {(list.data ?? []).map((d) => (
            <li key={d.id} className="card">
              <strong>{d.label}</strong> <span className="muted">{d.assetSymbol}</span>
              <p className="small"><code>{d.summary}</code></p>
              <span className={`badge ${d.usable ? 'badge-completed' : 'badge-pending_approval'}`}>{d.usable ? t('withdrawals.usable') : t('withdrawals.coolingDown')}</span>
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
            <Field label={t('withdrawals.label')} value={form.label} onChange={set('label')} required />
            <SelectField label={t('common.asset')} value={assetSym} onChange={set('assetSymbol')} options={(balances.data ?? []).map((b) => ({ value: b.assetSymbol, label: b.assetSymbol }))} />
            <Field label={t('withdrawals.bankName')} value={form.bankName} onChange={set('bankName')} required />
            <SelectField label={t('withdrawals.accountKind')} value={form.accountKind} onChange={set('accountKind')}
              options={[{ value: 'checking', label: t('withdrawals.checking') }, { value: 'savings', label: t('withdrawals.savings') }]} />
            <Field label={t('withdrawals.accountNumber')} value={form.accountNumber} onChange={set('accountNumber')} inputMode="numeric" autoComplete="off" required />
            <Field label={t('withdrawals.holderName')} value={form.holderName} onChange={set('holderName')} required />
            <Field label={t('withdrawals.holderDocument')} value={form.holderDocument} onChange={set('holderDocument')} required />
            <button type="submit" disabled={busy}>{t('withdrawals.registerSubmit')}</button>
          </form>
        </details>
      )}
    </section>
  );
}
