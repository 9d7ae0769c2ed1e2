import { ErrorBox, RecoveryCodes, TotpEnrolForm, useTotpEnrolment } from '@cambio/web-kit';
import { useQueryClient } from '@tanstack/react-query';
import { op } from '../../lib/api.ts';
import { t } from '../../lib/i18n.ts';

const texts = () => ({
  scan: t('totp.scan'),
  qr: t('totp.qr'),
  setupKey: t('totp.setupKey'),
  code: t('signIn.code'),
  confirm: t('totp.confirm'),
});

/** Two-step sign-in (RFC 6238): scan the QR code or type the setup key, confirm with a code, keep the recovery codes. */
export function TotpEnrol({ enrolled }: { enrolled: boolean }) {
  const qc = useQueryClient();
  const totp = useTotpEnrolment({
    enrol: (idempotencyKey) => op.session.enrolTotp({ idempotencyKey }),
    confirm: (code, idempotencyKey) => op.session.confirmTotp(code, { idempotencyKey }),
    onConfirmed: () => qc.invalidateQueries({ queryKey: ['session'] }),
  });

  if (totp.recovery) {
    return (
      <section aria-labelledby="recovery-title" className="panel">
        <h2 id="recovery-title">{t('totp.onTitle')}</h2>
        <p className="warning" role="status">
          {t('totp.recoveryWarning')}
        </p>
        <RecoveryCodes codes={totp.recovery} />
      </section>
    );
  }
  if (enrolled) return <p className="panel ok-note">{t('totp.on')}</p>;
  return (
    <section aria-labelledby="totp-title" className="panel">
      <h2 id="totp-title">{t('totp.title')}</h2>
      <ErrorBox error={totp.error} />
      {!totp.enrolment ? (
        <>
          <p>{t('totp.staffMust')}</p>
          <button type="button" className="primary" onClick={() => void totp.start()} disabled={totp.busy}>
            {t('totp.start')}
          </button>
        </>
      ) : (
        <TotpEnrolForm
          enrolment={totp.enrolment}
          texts={texts()}
          busy={totp.busy}
          submitClassName="primary"
          onConfirm={(code) => void totp.confirm(code)}
        />
      )}
    </section>
  );
}
