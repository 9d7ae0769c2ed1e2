import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ErrorBox, useActionKey } from '@cambio/web-kit';
import { t } from '../lib/i18n.ts';

/**
 * An irreversible act: a summary, a confirming click, the button disabled while the request is in
 * flight, and one Idempotency-Key per confirmation (a double click or a re-sent request acts once; a
 * second try after an answer that never came reuses it while `content`, what the act sends, is the same).
 * `onConfirm` throws to keep the dialog open with the error; `canConfirm` false keeps the button off.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
  canConfirm = true,
  danger = false,
  content = null,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: (idempotencyKey: string) => Promise<void>;
  onClose: () => void;
  canConfirm?: boolean;
  danger?: boolean;
  content?: unknown;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const inFlight = useRef(false);
  const key = useActionKey();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const titleId = useId();

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => {
      if (d?.open) d.close();
    };
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (inFlight.current || !canConfirm) return; // a second click in the same tick, before the re-render
    inFlight.current = true;
    setBusy(true);
    setError(null);
    try {
      await key.run(content, onConfirm);
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(e) => {
        if (busy) e.preventDefault();
        else onClose();
      }}
    >
      <form onSubmit={submit}>
        <h2 id={titleId}>{title}</h2>
        <div className="dialog-body">{children}</div>
        <ErrorBox error={error} />
        <div className="actions">
          <button type="submit" className={danger ? 'danger' : 'primary'} disabled={busy || !canConfirm} aria-busy={busy}>
            {busy ? t('common.sending') : confirmLabel}
          </button>
          <button type="button" onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
