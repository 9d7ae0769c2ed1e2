import type { StaffPerson } from '@cambio/sdk';
import { useState, type FormEvent } from 'react';
import { Field, useActionKey } from '@cambio/web-kit';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { op } from '../../lib/api.ts';

/**
 * /desk/invitation#<token>: the token travels in the fragment, so it never reaches a server log; the
 * person chooses a password and is signed in, then enrols TOTP before their first decision.
 */
export function InvitationPage({ token, onAccepted }: { token: string; onAccepted: (staff: StaffPerson) => void }) {
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [mismatch, setMismatch] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const act = useActionKey();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (password !== again) { setMismatch('The two passwords differ.'); return; }
    setMismatch(null);
    setBusy(true);
    setError(null);
    try {
      const r = await act.run({ token, password }, (idempotencyKey) => op.session.acceptInvitation({ token, password }, { idempotencyKey }));
      window.history.replaceState(null, '', window.location.pathname); // the token leaves the address bar
      onAccepted(r.staff);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  if (!token) {
    return (
      <main className="narrow" id="main">
        <h1>Accept your invitation</h1>
        <p className="error-note" role="alert">This address carries no invitation. Open the whole link you were sent.</p>
      </main>
    );
  }
  return (
    <main className="narrow" id="main">
      <h1>Accept your invitation</h1>
      <p className="intro">Choose the password you will sign in with. Next you set up two-step sign-in with an authenticator app; the desk asks for it before your first decision.</p>
      <form onSubmit={submit} noValidate>
        <ErrorNote error={error} />
        <Field label="New password" type="password" autoComplete="new-password" required value={password} onChange={setPassword}
          hint="At least 12 characters; a passphrase of a few unrelated words is easiest." />
        <Field label="Repeat the password" type="password" autoComplete="new-password" required value={again} onChange={setAgain} error={mismatch} />
        <button type="submit" className="primary" disabled={busy}>Accept invitation</button>
      </form>
    </main>
  );
}
