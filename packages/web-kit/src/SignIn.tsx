import { CambioError } from '@cambio/sdk';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Field } from './Field.tsx';
import { ErrorBox } from './ErrorBox.tsx';
import { useActionKey } from './kit-context.tsx';

export interface SignInTexts {
  title: string;
  email: string;
  password: string;
  code: string;
  codeHint: string;
  submit: string;
}
export interface SignInBody {
  email: string;
  password: string;
  code?: string;
}

/**
 * Email and password; when the server asks for it (401 auth.code_required), the TOTP code or a
 * recovery code (docs/design/people-and-apps.md names the fields Email, Password, Code and the button Sign in, in
 * English). The server answers one way for any wrong part and throttles; the form only relays it.
 * `signIn` is the app's own call (its SDK client, what it does with the session it gets).
 */
export function SignIn({
  texts,
  signIn,
  intro,
  top,
  submitClassName,
  forgot,
}: {
  texts: SignInTexts;
  signIn: (body: SignInBody, idempotencyKey: string) => Promise<void>;
  intro?: ReactNode;
  /** Above the heading (the desk's language switch). */
  top?: ReactNode;
  submitClassName?: string;
  /** The link to the forgotten-password page (ForgotPassword): its address and words. */
  forgot?: { href: string; label: string };
}) {
  const act = useActionKey();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [askCode, setAskCode] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const body: SignInBody = { email: email.trim(), password, ...(askCode && code.trim() ? { code: code.trim() } : {}) };
      await act.run(body, (idempotencyKey) => signIn(body, idempotencyKey));
    } catch (err) {
      if (err instanceof CambioError && err.code === 'auth.code_required' && !askCode) setAskCode(true);
      else setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="narrow">
      {top}
      <h1>{texts.title}</h1>
      {intro && <p className="intro">{intro}</p>}
      <form onSubmit={submit} noValidate>
        <ErrorBox error={error} />
        <Field label={texts.email} type="email" value={email} onChange={setEmail} autoComplete="username" inputMode="email" required />
        <Field label={texts.password} type="password" value={password} onChange={setPassword} autoComplete="current-password" required />
        {askCode && (
          <Field
            label={texts.code}
            value={code}
            onChange={setCode}
            hint={texts.codeHint}
            autoComplete="one-time-code"
            inputMode="numeric"
            autoFocus
          />
        )}
        <button type="submit" className={submitClassName} disabled={busy}>
          {texts.submit}
        </button>
      </form>
      {forgot && (
        <p className="forgot">
          <a href={forgot.href}>{forgot.label}</a>
        </p>
      )}
    </main>
  );
}
