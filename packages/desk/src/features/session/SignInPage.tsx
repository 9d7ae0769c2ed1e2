import { CambioError, type StaffPerson } from '@cambio/sdk';
import { useRef, useState, type FormEvent } from 'react';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { Field } from '../../components/Field.tsx';
import { LanguageSwitch } from '../../components/LanguageSwitch.tsx';
import { useActionKey } from '../../lib/action-key.ts';
import { op } from '../../lib/api.ts';
import { t } from '../../lib/i18n.ts';

/**
 * Email and password; when the server asks for it (401 auth.code_required), the TOTP code or a
 * recovery code. The server answers one way for any wrong part and throttles; we only relay it.
 */
export function SignInPage({ onSignedIn }: { onSignedIn: (staff: StaffPerson) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [askCode, setAskCode] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  const act = useActionKey();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const body = { email: email.trim(), password, ...(askCode && code.trim() ? { code: code.trim() } : {}) };
      const r = await act.run(body, (idempotencyKey) => op.session.signIn(body, { idempotencyKey }));
      onSignedIn(r.staff);
    } catch (err) {
      if (err instanceof CambioError && err.code === 'auth.code_required') {
        setAskCode(true);
        setTimeout(() => codeRef.current?.focus(), 0);
      } else {
        setError(err);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="narrow" id="main">
      <LanguageSwitch />
      <h1>{t('signIn.title')}</h1>
      <p className="intro">{t('signIn.intro')}</p>
      <form onSubmit={submit} noValidate>
        <ErrorNote error={error} />
        <Field label={t('signIn.email')} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field label={t('signIn.password')} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        {askCode && (
          <Field label={t('signIn.code')} ref={codeRef} inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)}
            hint={t('signIn.codeHint')} />
        )}
        <button type="submit" className="primary" disabled={busy}>{t('signIn.submit')}</button>
      </form>
    </main>
  );
}
