import { ChangePassword, ErrorBox, RecoveryCodes, TotpEnrolForm, useTotpEnrolment } from '@cambio/web-kit';
import { downloadText } from '../../lib/download.ts';
import { usePortal } from '../../lib/portal-context.ts';
import { CopyButton, Notice } from '../../components/ui.tsx';

function Password() {
  const { sdk, t } = usePortal();
  return (
    <ChangePassword
      required
      texts={{
        title: t('account.password'),
        current: t('account.current'),
        next: t('account.new'),
        submit: t('account.change'),
        changed: t('account.changed'),
      }}
      change={(body, idempotencyKey) => sdk.session.changePassword(body, { idempotencyKey })}
      done={(text) => <Notice tone="success">{text}</Notice>}
    />
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
      <Password />
      <Totp />
    </>
  );
}
