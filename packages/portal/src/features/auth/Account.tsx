import { Field, RecoveryCodes, TotpEnrolForm, useActionKey, useTotpEnrolment } from '@cambio/web-kit';
import { useState, type FormEvent } from 'react';
import { downloadText } from '../../lib/download.ts';
import { usePortal } from '../../lib/portal-context.ts';
import { CopyButton, ErrorBox, Notice } from '../../components/ui.tsx';

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
    setBusy(true);
    setError(null);
    setDone(false);
    try {
      const body = { currentPassword: current, newPassword: next };
      await act.run(body, (idempotencyKey) => sdk.session.changePassword(body, { idempotencyKey }));
      setDone(true);
      setCurrent('');
      setNext('');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="pw-h">
      <h2 id="pw-h">{t('account.password')}</h2>
      <ErrorBox error={error} />
      {done && <Notice tone="success">{t('account.changed')}</Notice>}
      <form onSubmit={submit} noValidate>
        <Field
          label={t('account.current')}
          type="password"
          value={current}
          onChange={setCurrent}
          autoComplete="current-password"
          required
        />
        <Field label={t('account.new')} type="password" value={next} onChange={setNext} autoComplete="new-password" required />
        <button type="submit" disabled={busy}>
          {t('account.change')}
        </button>
      </form>
    </section>
  );
}

function Totp() {
  const { sdk, t, session, setSession } = usePortal();
  const enrolled = session?.member.totpEnrolled ?? false;
  const totp = useTotpEnrolment({
    enrol: (idempotencyKey) => sdk.session.enrolTotp({ idempotencyKey }),
    confirm: (code, idempotencyKey) => sdk.session.confirmTotp({ code }, { idempotencyKey }),
    onConfirmed: async () => setSession(await sdk.session.current()),
  });
  // Turned on elsewhere meanwhile: the half-done set-up is no longer offered.
  const enrolment = enrolled ? null : totp.enrolment;
  return (
    <section aria-labelledby="totp-h">
      <h2 id="totp-h">{t('totp.title')}</h2>
      <ErrorBox error={totp.error} />
      {totp.recovery && (
        <Notice tone="warning">
          <p>{t('totp.recovery')}</p>
          <RecoveryCodes codes={totp.recovery} />
          <div className="buttons">
            <CopyButton text={totp.recovery.join('\n')} label={t('totp.title')} />
            <button type="button" className="secondary" onClick={() => downloadText(t('totp.fileName'), `${totp.recovery!.join('\n')}\n`)}>
              {t('totp.download')}
            </button>
          </div>
        </Notice>
      )}
      <p>{enrolled ? t('totp.enrolled') : t('totp.off')}</p>
      {!enrolled && !enrolment && (
        <button type="button" onClick={() => void totp.start()} disabled={totp.busy}>
          {t('totp.start')}
        </button>
      )}
      {enrolment && (
        <TotpEnrolForm
          enrolment={enrolment}
          busy={totp.busy}
          onConfirm={(code) => void totp.confirm(code)}
          texts={{ scan: t('totp.scan'), qr: t('totp.qr'), setupKey: t('totp.setupKey'), code: t('totp.code'), confirm: t('totp.confirm') }}
          setupKeyExtra={<CopyButton text={enrolment.secret} label={t('totp.setupKey')} />}
        />
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
