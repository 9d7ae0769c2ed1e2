import { ForgotPassword, LanguageSwitch, ResetPassword } from '@cambio/web-kit';
import { op } from '../../lib/api.ts';
import { chooseLang, LANG, t } from '../../lib/i18n.ts';

const top = () => <LanguageSwitch label={t('app.language')} current={LANG} onChoose={chooseLang} />;

/** `/desk/forgot-password`: a mail with a link, if the email is a staff person's (the answer never says). */
export function ForgotPasswordPage() {
  return (
    <ForgotPassword
      lang={LANG}
      top={top()}
      signInHref="/desk/"
      request={async (email, idempotencyKey) => {
        await op.session.requestPasswordReset({ email }, { idempotencyKey });
      }}
    />
  );
}

/** `/desk/reset-password#<token>`: the link of that mail; a new password, then sign in (with the code). */
export function ResetPasswordPage() {
  return (
    <ResetPassword
      lang={LANG}
      top={top()}
      signInHref="/desk/"
      complete={async (p, idempotencyKey) => {
        await op.session.completePasswordReset(p, { idempotencyKey });
      }}
    />
  );
}
