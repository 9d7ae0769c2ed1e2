import type { TotpEnrolment } from '@cambio/sdk';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Field } from './Field.tsx';
import { useActionKey } from './kit-context.tsx';
import { QrCode } from './QrCode.tsx';

/**
 * Two-step sign-in (RFC 6238) for a person who has none: ask for a secret, show it as a QR code and a
 * setup key, confirm it with a code from the app, and keep the recovery codes on screen (shown once).
 * The calls are the app's own (its SDK client); `onConfirmed` re-reads its session.
 */
export function useTotpEnrolment({
  enrol,
  confirm,
  onConfirmed,
}: {
  enrol: (idempotencyKey: string) => Promise<TotpEnrolment>;
  confirm: (code: string, idempotencyKey: string) => Promise<{ recoveryCodes: string[] }>;
  onConfirmed: () => Promise<unknown> | void;
}) {
  const enrolKey = useActionKey();
  const confirmKey = useActionKey();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const start = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      setEnrolment(await enrolKey.run('enrol', enrol));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const confirmCode = async (code: string) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const r = await confirmKey.run(code, (idempotencyKey) => confirm(code, idempotencyKey));
      setRecovery(r.recoveryCodes);
      setEnrolment(null);
      await onConfirmed();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { enrolment, recovery, error, busy, start, confirm: confirmCode };
}

export interface TotpTexts {
  scan: string;
  qr: string;
  setupKey: string;
  code: string;
  confirm: string;
}

/** The secret as a QR code and a read-only setup key, then the code that proves the app has it. */
export function TotpEnrolForm({
  enrolment,
  texts,
  busy,
  onConfirm,
  setupKeyExtra,
  submitClassName,
}: {
  enrolment: TotpEnrolment;
  texts: TotpTexts;
  busy: boolean;
  onConfirm: (code: string) => void;
  /** Beside the setup key (the portal's copy button). */
  setupKeyExtra?: ReactNode;
  submitClassName?: string;
}) {
  const [code, setCode] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onConfirm(code.trim());
  };
  return (
    <form onSubmit={submit} noValidate>
      <p>{texts.scan}</p>
      <QrCode text={enrolment.otpauthUrl} label={texts.qr} />
      <Field label={texts.setupKey} value={enrolment.secret} readOnly className="mono" />
      {setupKeyExtra}
      <Field label={texts.code} value={code} onChange={setCode} inputMode="numeric" autoComplete="one-time-code" required />
      <button type="submit" className={submitClassName} disabled={busy}>
        {texts.confirm}
      </button>
    </form>
  );
}

/** The recovery codes, one a line, to copy or write down. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <ul className="codes">
      {codes.map((c) => (
        <li key={c}>
          <code>{c}</code>
        </li>
      ))}
    </ul>
  );
}
