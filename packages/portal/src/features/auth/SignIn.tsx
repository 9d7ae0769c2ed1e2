import { forgotPasswordLabel, SignIn as KitSignIn } from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';

/** Sign in (docs/design/people-and-apps.md: fields Email, Password and, when asked, Code; button Sign in). */
export function SignIn() {
  const { sdk, t, setSession, lang } = usePortal();
  return (
    <KitSignIn
      texts={{
        title: t('signin.title'),
        email: t('signin.email'),
        password: t('signin.password'),
        code: t('signin.code'),
        codeHint: t('signin.codeHint'),
        submit: t('signin.submit'),
      }}
      signIn={async (body, idempotencyKey) => setSession(await sdk.session.signIn(body, { idempotencyKey }))}
      forgot={{ href: '/portal/forgot-password', label: forgotPasswordLabel(lang) }}
    />
  );
}
