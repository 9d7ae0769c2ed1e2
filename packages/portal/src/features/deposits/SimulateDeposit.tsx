import { useQueryClient } from '@tanstack/react-query';
import { type Deposit, type DepositDeclaration, type DepositWallet } from '@cambio/sdk';
import { useState, type FormEvent } from 'react';
import { ErrorBox, Field, formatMoney, readAmount, SelectField, typedAmount, useActionKey } from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';
import { Notice } from '../../components/ui.tsx';

/**
 * Sandbox only (docs/sandbox.md): money arrives at the platform's wallet of an asset now, recorded as the
 * operator records an arrival. The open declaration's exact amount is filled in, so one click credits it;
 * any other amount waits for attribution, as in production.
 */
export function SimulateDeposit({
  wallets,
  decimalsOf,
  open,
}: {
  wallets: DepositWallet[];
  decimalsOf: (asset: string) => number | undefined;
  open: DepositDeclaration | null | undefined;
}) {
  const { sdk, t, lang } = usePortal();
  const qc = useQueryClient();
  const act = useActionKey();
  const known = wallets.filter((w) => decimalsOf(w.assetSymbol) !== undefined);
  const [asset, setAsset] = useState('');
  const sym = asset || open?.assetSymbol || known[0]?.assetSymbol || '';
  const decimals = decimalsOf(sym);
  const [text, setText] = useState<string | null>(null);
  const suggested = open && open.assetSymbol === sym ? typedAmount(open.expectedAmountMinor, open.assetDecimals, lang) : '';
  const shown = text ?? suggested;
  const reading = decimals !== undefined ? readAmount(shown, decimals, { positive: true, lang }) : null;
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [arrived, setArrived] = useState<Deposit | null>(null);
  if (known.length === 0) return null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!reading?.ok) return;
    setBusy(true);
    setError(null);
    setArrived(null);
    try {
      const body = { assetSymbol: sym, amountMinor: reading.minor };
      const d = await act.run(body, (idempotencyKey) => sdk.sandbox.deposit(body, { idempotencyKey }));
      setArrived(d);
      setText(null);
      setTouched(false);
      await Promise.all(
        ['open-declaration', 'balances', 'ledger', 'deposits'].map((k) => qc.invalidateQueries({ queryKey: [k], refetchType: 'all' })),
      );
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="simulate-h" className="card">
      <h2 id="simulate-h">{t('sandbox.simulate')}</h2>
      <p className="hint">{t('sandbox.simulateHint')}</p>
      <ErrorBox error={error} />
      {arrived && (
        <Notice tone="success">
          {t(arrived.state === 'credited' ? 'sandbox.credited' : 'sandbox.unattributed', {
            amount: formatMoney(arrived.money.amountMinor, arrived.money.assetDecimals, lang),
            asset: arrived.money.assetSymbol,
          })}
        </Notice>
      )}
      <form onSubmit={submit} noValidate>
        <SelectField
          label={t('sandbox.asset')}
          value={sym}
          onChange={(v) => {
            setAsset(v);
            setText(null);
          }}
          options={known.map((w) => ({ value: w.assetSymbol, label: w.assetSymbol }))}
        />
        <Field
          label={t('sandbox.amount', { asset: sym })}
          value={shown}
          onChange={setText}
          inputMode="decimal"
          autoComplete="off"
          error={touched && reading && !reading.ok ? t(`amount.${reading.reason}`, { asset: sym, decimals: decimals ?? 0 }) : null}
        />
        <button type="submit" disabled={busy}>
          {t('sandbox.simulateSubmit')}
        </button>
      </form>
    </section>
  );
}
