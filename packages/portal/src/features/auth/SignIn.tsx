import { CambioError } from '@cambio/sdk';
import { useState, type FormEvent } from 'react';
import { usePortal, useActionKey } from '../../app/context.tsx';
import { ErrorBox, Field } from '../../components/ui.tsx';

/** Sign in (CONTRACT §8: fields Email, Password and, when asked, Code; button Sign in). */
export function SignIn() {
  const { sdk, t, setSession } = usePortal();
  const act = useActionKey();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [askCode, setAskCode] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = { email: email.trim(), password, ...(askCode && code.trim() ? { code: code.trim() } : {}) };
      setSession(await act.run(body, (idempotencyKey) => sdk.session.signIn(body, { idempotencyKey })));
    } catch (err) {
      if (err instanceof CambioError && err.code === 'auth.code_required' && !askCode) setAskCode(true);
      else setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="narrow">
      <h1>{t('signin.title')}</h1>
      <ErrorBox error={error} />
      <form onSubmit={submit} noValidate>
        <Field label={t('signin.email')} type="email" value={email} onChange={setEmail} autoComplete="username" inputMode="email" required />
        <Field label={t('signin.password')} type="password" value={password} onChange={setPassword} autoComplete="current-password" required />
        {askCode && (
          <Field label={t('signin.code')} value={code} onChange={setCode} hint={t('signin.codeHint')} autoComplete="one-time-code" inputMode="numeric" autoFocus />
        )}
        <button type="submit" disabled={busy}>{t('signin.submit')}</button>
      </form>
    </main>
  );
}
