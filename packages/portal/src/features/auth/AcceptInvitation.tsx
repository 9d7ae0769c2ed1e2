import { useState, type FormEvent } from 'react';
import { ErrorBox, Field, useActionKey } from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';
import { navigate } from '../../lib/router.ts';

/** `/portal/invitation#<token>`: the token lives in the fragment, so it never reaches a server log. */
export function AcceptInvitation() {
  const { sdk, t, setSession } = usePortal();
  const act = useActionKey();
  const [token] = useState(() => decodeURIComponent(window.location.hash.replace(/^#/, '')));
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setMismatch(password !== confirm);
    if (password !== confirm) return;
    setBusy(true);
    setError(null);
    try {
      const s = await act.run({ token, password }, (idempotencyKey) =>
        sdk.session.acceptInvitation({ token, password }, { idempotencyKey }),
      );
      setSession(s);
      // The token is spent: the address bar and the history drop it.
      navigate('/', { replace: true });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="narrow">
      <h1>{t('invite.title')}</h1>
      {!token ? (
        <p className="error-box" role="alert">
          {t('invite.noToken')}
        </p>
      ) : (
        <>
          <ErrorBox error={error} />
          <form onSubmit={submit} noValidate>
            <Field
              label={t('invite.password')}
              type="password"
              value={password}
              onChange={setPassword}
              autoComplete="new-password"
              required
            />
            <Field
              label={t('invite.confirm')}
              type="password"
              value={confirm}
              onChange={setConfirm}
              autoComplete="new-password"
              required
              error={mismatch ? t('invite.mismatch') : null}
            />
            <button type="submit" disabled={busy}>
              {t('invite.submit')}
            </button>
          </form>
        </>
      )}
    </main>
  );
}
