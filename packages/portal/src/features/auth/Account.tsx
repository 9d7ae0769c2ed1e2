import { useEffect, useState, type FormEvent } from 'react';
import QRCode from 'qrcode';
import type { TotpEnrolment } from '@cambio/sdk';
import { usePortal, useActionKey } from '../../app/context.tsx';
import { CopyButton, ErrorBox, Field, Notice } from '../../components/ui.tsx';

/** The QR code drawn as SVG elements (no inline markup, no data: URL: the CSP stays strict). */
function QrCode({ text, label }: { text: string; label: string }) {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const cells: string[] = [];
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (qr.modules.get(r, c)) cells.push(`M${c + 4} ${r + 4}h1v1h-1z`);
  return (
    <svg className="qr" role="img" aria-label={label} viewBox={`0 0 ${n + 8} ${n + 8}`} width="200" height="200">
      <rect width={n + 8} height={n + 8} fill="#fff" />
      <path d={cells.join('')} fill="#000" />
    </svg>
  );
}

function ChangePassword() {
  const { sdk, t } = usePortal();
  const act = useActionKey();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true); setError(null); setDone(false);
    try {
      const body = { currentPassword: current, newPassword: next };
      await act.run(body, (idempotencyKey) => sdk.session.changePassword(body, { idempotencyKey }));
      setDone(true); setCurrent(''); setNext('');
    } catch (err) { setError(err); } finally { setBusy(false); }
  };
  return (
    <section aria-labelledby="pw-h">
      <h2 id="pw-h">{t('account.password')}</h2>
      <ErrorBox error={error} />
      {done && <Notice tone="success">{t('account.changed')}</Notice>}
      <form onSubmit={submit} noValidate>
        <Field label={t('account.current')} type="password" value={current} onChange={setCurrent} autoComplete="current-password" required />
        <Field label={t('account.new')} type="password" value={next} onChange={setNext} autoComplete="new-password" required />
        <button type="submit" disabled={busy}>{t('account.change')}</button>
      </form>
    </section>
  );
}

function Totp() {
  const { sdk, t, session, setSession } = usePortal();
  const enrolKey = useActionKey();
  const confirmKey = useActionKey();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const enrolled = session?.member.totpEnrolled ?? false;
  const start = async () => {
    setBusy(true); setError(null);
    try { setEnrolment(await enrolKey.run('enrol', (idempotencyKey) => sdk.session.enrolTotp({ idempotencyKey }))); } catch (err) { setError(err); } finally { setBusy(false); }
  };
  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true); setError(null);
    try {
      const r = await confirmKey.run(code.trim(), (idempotencyKey) => sdk.session.confirmTotp({ code: code.trim() }, { idempotencyKey }));
      setRecovery(r.recoveryCodes);
      setEnrolment(null);
      setSession(await sdk.session.current());
    } catch (err) { setError(err); } finally { setBusy(false); }
  };
  useEffect(() => { if (enrolled) setEnrolment(null); }, [enrolled]);
  return (
    <section aria-labelledby="totp-h">
      <h2 id="totp-h">{t('totp.title')}</h2>
      <ErrorBox error={error} />
      {recovery && (
        <Notice tone="warning">
          <p>{t('totp.recovery')}</p>
          <ul className="codes">{recovery.map((c) => <li key={c}><code>{c}</code></li>)}</ul>
          <CopyButton text={recovery.join('\n')} />
        </Notice>
      )}
      <p>{enrolled ? t('totp.enrolled') : t('totp.off')}</p>
      {!enrolled && !enrolment && <button type="button" onClick={start} disabled={busy}>{t('totp.start')}</button>}
      {enrolment && (
        <form onSubmit={confirm} noValidate>
          <p>{t('totp.scan')}</p>
          <QrCode text={enrolment.otpauthUrl} label={t('totp.qr')} />
          <Field label={t('totp.setupKey')} value={enrolment.secret} onChange={() => {}} readOnly />
          <CopyButton text={enrolment.secret} label={t('totp.setupKey')} />
          <Field label={t('totp.code')} value={code} onChange={setCode} inputMode="numeric" autoComplete="one-time-code" required />
          <button type="submit" disabled={busy}>{t('totp.confirm')}</button>
        </form>
      )}
    </section>
  );
}

export function Account() {
  const { t } = usePortal();
  return (
    <>
      <h1>{t('account.title')}</h1>
      <ChangePassword />
      <Totp />
    </>
  );
}
