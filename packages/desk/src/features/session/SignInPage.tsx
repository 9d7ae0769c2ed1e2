import { CambioError, type StaffPerson } from '@cambio/sdk';
import { useRef, useState, type FormEvent } from 'react';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { Field } from '../../components/Field.tsx';
import { op } from '../../lib/api.ts';

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

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const r = await op.session.signIn({ email: email.trim(), password, ...(askCode && code.trim() ? { code: code.trim() } : {}) });
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
      <h1>Sign in to the desk</h1>
      <p className="intro">For the operator's staff. Every decision you take here is recorded under your name.</p>
      <form onSubmit={submit} noValidate>
        <ErrorNote error={error} />
        <Field label="Email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field label="Password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        {askCode && (
          <Field label="Code" ref={codeRef} inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)}
            hint="The six digits of your authenticator app, or one of your recovery codes." />
        )}
        <button type="submit" className="primary" disabled={busy}>Sign in</button>
      </form>
    </main>
  );
}
