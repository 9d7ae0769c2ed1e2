import { RecoveryCodes, TotpEnrolForm, useTotpEnrolment } from '@cambio/web-kit';
import { useQueryClient } from '@tanstack/react-query';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { op } from '../../lib/api.ts';

const TEXTS = {
  scan: 'Scan this code with your authenticator app, or type the setup key into it. Then enter the six digits it shows.',
  qr: 'Image to scan with your authenticator app',
  setupKey: 'Setup key',
  code: 'Code',
  confirm: 'Confirm',
};

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
        <h2 id="recovery-title">Two-step sign-in is on</h2>
        <p className="warning" role="status">These recovery codes are shown once. Each signs you in once in place of a code if you lose your phone. Store them where only you can read them.</p>
        <RecoveryCodes codes={totp.recovery} />
      </section>
    );
  }
  if (enrolled) return <p className="panel ok-note">Two-step sign-in is on.</p>;
  return (
    <section aria-labelledby="totp-title" className="panel">
      <h2 id="totp-title">Two-step sign-in</h2>
      <ErrorNote error={totp.error} />
      {!totp.enrolment ? (
        <>
          <p>Staff must set up an authenticator app before their first decision.</p>
          <button type="button" className="primary" onClick={() => void totp.start()} disabled={totp.busy}>Set up two-step sign-in</button>
        </>
      ) : (
        <TotpEnrolForm enrolment={totp.enrolment} texts={TEXTS} busy={totp.busy} submitClassName="primary" onConfirm={(code) => void totp.confirm(code)} />
      )}
    </section>
  );
}
