import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorBox, Field, isFiat, SelectField, useActionKey } from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';
import { Notice } from '../../components/ui.tsx';

const EMPTY = { label: '', assetSymbol: '', network: '', address: '', memo: '' };

/** How much of each end of an address the person confirms before it is registered. */
const ENDS = 6;

/**
 * Registers a crypto address (docs/api-guide.md "Crypto destinations"): the asset, the network (as the
 * deposit wallets name it) and the address, then a confirming step that shows the address's first and
 * last characters, so the person compares them with the address they were given before anything is
 * registered. The server checks the address for its network.
 */
export function CryptoDestinationForm() {
  const { sdk, t } = usePortal();
  const act = useActionKey();
  const qc = useQueryClient();
  const balances = useQuery({ queryKey: ['balances'], queryFn: () => sdk.balances.list() });
  const [form, setForm] = useState(EMPTY);
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  // Its fields exist only while it is open: the bank form's fields keep their names to themselves.
  const [open, setOpen] = useState(false);
  const set = (k: keyof typeof EMPTY) => (v: string) => {
    setForm((f) => ({ ...f, [k]: v }));
    setConfirming(false);
  };
  // An address receives a crypto asset: the organization's other assets are not offered.
  const crypto = (balances.data ?? []).filter((b) => !isFiat(b.assetSymbol));
  const assetSym = form.assetSymbol || crypto[0]?.assetSymbol || '';
  const address = form.address.trim();
  const REQUIRED = { label: 'withdrawals.cryptoLabel', network: 'withdrawals.network', address: 'withdrawals.address' } as const;
  const missing = (k: keyof typeof REQUIRED) =>
    touched && form[k].trim() === '' ? t('form.required', { field: t(REQUIRED[k]).toLowerCase() }) : null;

  const check = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    setDone(false);
    if (!assetSym || (Object.keys(REQUIRED) as Array<keyof typeof REQUIRED>).some((k) => form[k].trim() === '')) return;
    setConfirming(true);
  };

  const register = async () => {
    setBusy(true);
    setError(null);
    try {
      const body = {
        label: form.label.trim(),
        assetSymbol: assetSym,
        network: form.network.trim(),
        address,
        ...(form.memo.trim() ? { memo: form.memo.trim() } : {}),
      };
      await act.run(body, (idempotencyKey) => sdk.withdrawals.registerCryptoDestination(body, { idempotencyKey }));
      setForm(EMPTY);
      setTouched(false);
      setConfirming(false);
      setDone(true);
      await qc.invalidateQueries({ queryKey: ['destinations'] });
    } catch (err) {
      setError(err);
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <details className="card" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{t('withdrawals.registerCrypto')}</summary>
      {open && (
        <>
          <ErrorBox error={error} />
          {done && <Notice tone="success">{t('withdrawals.registered')}</Notice>}
          <form onSubmit={check} noValidate>
            <Field label={t('withdrawals.cryptoLabel')} value={form.label} onChange={set('label')} error={missing('label')} required />
            {crypto.length === 0 ? (
              <p className="inline-error">{t('withdrawals.noCrypto')}</p>
            ) : (
              <SelectField
                label={t('withdrawals.cryptoAsset')}
                value={assetSym}
                onChange={set('assetSymbol')}
                options={crypto.map((b) => ({ value: b.assetSymbol, label: b.assetSymbol }))}
              />
            )}
            <Field
              label={t('withdrawals.network')}
              hint={t('withdrawals.networkHint')}
              value={form.network}
              onChange={set('network')}
              autoComplete="off"
              error={missing('network')}
              required
            />
            <Field
              label={t('withdrawals.address')}
              value={form.address}
              onChange={set('address')}
              autoComplete="off"
              spellCheck={false}
              error={missing('address')}
              required
            />
            <Field label={t('withdrawals.memo')} value={form.memo} onChange={set('memo')} autoComplete="off" />
            {confirming ? (
              <div role="group" aria-label={t('withdrawals.checkAddress')} className="notice">
                <p>
                  {t('withdrawals.checkEnds', {
                    start: address.slice(0, ENDS),
                    end: address.slice(-ENDS),
                    network: form.network.trim(),
                  })}
                </p>
                <button type="button" onClick={() => void register()} disabled={busy}>
                  {t('withdrawals.confirmAddress')}
                </button>{' '}
                <button type="button" className="secondary" onClick={() => setConfirming(false)}>
                  {t('withdrawals.back')}
                </button>
              </div>
            ) : (
              <button type="submit" disabled={busy || crypto.length === 0}>
                {t('withdrawals.registerAddress')}
              </button>
            )}
          </form>
        </>
      )}
    </details>
  );
}
