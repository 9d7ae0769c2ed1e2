import type { TotpEnrolment } from '@cambio/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { Field } from '../../components/Field.tsx';
import { useActionKey } from '../../lib/action-key.ts';
import { op } from '../../lib/api.ts';
import { QrCode } from './QrCode.tsx';

/** Two-step sign-in (RFC 6238): scan the QR code or type the setup key, confirm with a code, keep the recovery codes. */
export function TotpEnrol({ enrolled }: { enrolled: boolean }) {
  const qc = useQueryClient();
  const enrolKey = useActionKey();
  const confirmKey = useActionKey();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const start = async () => {
    if (busy) return;
    setBusy(true); setError(null);
    try { setEnrolment(await enrolKey.run('enrol', (idempotencyKey) => op.session.enrolTotp({ idempotencyKey }))); } catch (e) { setError(e); } finally { setBusy(false); }
  };
  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true); setError(null);
    try {
      const r = await confirmKey.run(code.trim(), (idempotencyKey) => op.session.confirmTotp(code.trim(), { idempotencyKey }));
      setRecovery(r.recoveryCodes);
      setEnrolment(null);
      await qc.invalidateQueries({ queryKey: ['session'] });
    } catch (err) { setError(err); } finally { setBusy(false); }
  };

  if (recovery) {
    return (
      <section aria-labelledby="recovery-title" className="panel">
        <h2 id="recovery-title">Two-step sign-in is on</h2>
        <p className="warning" role="status">These recovery codes are shown once. Each signs you in once in place of a code if you lose your phone. Store them where only you can read them.</p>
        <ul className="codes">{recovery.map((c) => <li key={c}><code>{c}</code></li>)}</ul>
      </section>
    );
  }
  if (enrolled) return <p className="panel ok-note">Two-step sign-in is on.</p>;
  return (
    <section aria-labelledby="totp-title" className="panel">
      <h2 id="totp-title">Two-step sign-in</h2>
      <ErrorNote error={error} />
      {!enrolment ? (
        <>
          <p>Staff must set up an authenticator app before their first decision.</p>
          <button type="button" className="primary" onClick={start} disabled={busy}>Set up two-step sign-in</button>
        </>
      ) : (
        <form onSubmit={confirm} noValidate>
          <p>Scan this code with your authenticator app, or type the setup key into it. Then enter the six digits it shows.</p>
          <QrCode text={enrolment.otpauthUrl} label="Image to scan with your authenticator app" />
          <div className="field">
            <label htmlFor="setup-key">Setup key</label>
            <input id="setup-key" readOnly value={enrolment.secret} className="mono" />
          </div>
          <Field label="Code" inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
          <button type="submit" className="primary" disabled={busy}>Confirm</button>
        </form>
      )}
    </section>
  );
}
