import type { StaffPerson } from '@cambio/sdk';
import { forgotPasswordLabel, LanguageSwitch, SignIn } from '@cambio/web-kit';
import { op, readMode } from '../../lib/api.ts';
import { chooseLang, LANG, t } from '../../lib/i18n.ts';

/**
 * The desk's sign-in: the kit's form (Email, Password, then the Code when the server asks for it) on
 * the operator API, with the language switch above it.
 */
export function SignInPage({ onSignedIn }: { onSignedIn: (staff: StaffPerson) => void }) {
  return (
    <>
      {readMode() === 'sandbox' && (
        <div className="banner banner-sandbox" role="note">
          <strong>{t('app.sandbox')}</strong> {t('app.sandboxText')}
        </div>
      )}
      <SignIn
        top={<LanguageSwitch label={t('app.language')} current={LANG} onChoose={chooseLang} />}
        texts={{
          title: t('signIn.title'),
          email: t('signIn.email'),
          password: t('signIn.password'),
          code: t('signIn.code'),
          codeHint: t('signIn.codeHint'),
          submit: t('signIn.submit'),
        }}
        intro={t('signIn.intro')}
        submitClassName="primary"
        signIn={async (body, idempotencyKey) => onSignedIn((await op.session.signIn(body, { idempotencyKey })).staff)}
        forgot={{ href: '/desk/forgot-password', label: forgotPasswordLabel(LANG) }}
      />
    </>
  );
}
