import type { OperatorDestination } from '@cambio/sdk';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ErrorBox, Field } from '@cambio/web-kit';
import { op } from '../../lib/api.ts';
import { t } from '../../lib/i18n.ts';

/**
 * "Show full account number": an approver or an admin confirms with a fresh code of their authenticator
 * app (step-up; the server records who read it in the audit trail) and reads the number to pay a wire or
 * check a registration. The number lives in this dialog only: closing it forgets it.
 */
export function RevealAccountDialog({ destination, onClose }: { destination: OperatorDestination; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [code, setCode] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [number, setNumber] = useState<string | null>(null);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => {
      if (d?.open) d.close();
    };
  }, []);

  const wellFormed = /^[0-9]{6}$/.test(code.trim());
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!wellFormed || busy) return;
    setBusy(true);
    setError(null);
    try {
      const r = await op.destinations.reveal(destination.id, { code: code.trim() });
      setNumber(r.accountNumber);
    } catch (err) {
      setError(err);
    } finally {
      setCode('');
      setBusy(false);
    }
  };

  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onCancel={() => onClose()}>
      <form onSubmit={submit} noValidate>
        <h2 id={titleId}>{t('reveal.title', { label: destination.label })}</h2>
        <div className="dialog-body">
          <dl className="summary">
            <dt>{t('dest.bankAccount')}</dt>
            <dd>{destination.summary}</dd>
            <dt>{t('dest.holder')}</dt>
            <dd>{destination.holderName}</dd>
          </dl>
          {number === null ? (
            <>
              <p>{t('reveal.why')}</p>
              <Field
                label={t('reveal.code')}
                inputMode="numeric"
                autoComplete="one-time-code"
                value={code}
                onChange={setCode}
                error={tried && !wellFormed ? t('reveal.codeForm') : null}
                hint={t('reveal.codeHint')}
              />
            </>
          ) : (
            <>
              <Field label={t('reveal.number')} value={number} readOnly className="break" />
              <p className="small">{t('reveal.audited')}</p>
            </>
          )}
        </div>
        <ErrorBox error={error} />
        <div className="actions">
          {number === null && (
            <button type="submit" className="primary" disabled={busy} aria-busy={busy}>
              {busy ? t('common.sending') : t('reveal.show')}
            </button>
          )}
          <button type="button" onClick={onClose} disabled={busy}>
            {number === null ? t('common.cancel') : t('reveal.close')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
