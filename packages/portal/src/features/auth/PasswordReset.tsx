import { ForgotPassword, ResetPassword } from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';

/** `/portal/forgot-password`: a mail with a link, if the email is a member's (the answer never says). */
export function ForgotPasswordPage() {
  const { sdk, lang } = usePortal();
  return (
    <ForgotPassword
      lang={lang}
      signInHref="/portal/"
      request={async (email, idempotencyKey) => {
        await sdk.session.requestPasswordReset({ email }, { idempotencyKey });
      }}
    />
  );
}

/** `/portal/reset-password#<token>`: the link of that mail; a new password, then sign in. */
export function ResetPasswordPage() {
  const { sdk, lang } = usePortal();
  return (
    <ResetPassword
      lang={lang}
      signInHref="/portal/"
      complete={async (p, idempotencyKey) => {
        await sdk.session.completePasswordReset(p, { idempotencyKey });
      }}
    />
  );
}
