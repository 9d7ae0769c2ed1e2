import type { StaffPerson } from '@cambio/sdk';
import { useState, type FormEvent } from 'react';
import { ErrorBox, Field, LanguageSwitch, useActionKey } from '@cambio/web-kit';
import { op } from '../../lib/api.ts';
import { chooseLang, LANG, t } from '../../lib/i18n.ts';

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
    if (password !== again) {
      setMismatch(t('invitation.mismatch'));
      return;
    }
    setMismatch(null);
    setBusy(true);
    setError(null);
    try {
      const r = await act.run({ token, password }, (idempotencyKey) =>
        op.session.acceptInvitation({ token, password }, { idempotencyKey }),
      );
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
        <LanguageSwitch label={t('app.language')} current={LANG} onChoose={chooseLang} />
        <h1>{t('invitation.title')}</h1>
        <p className="error-box" role="alert">
          {t('invitation.noToken')}
        </p>
      </main>
    );
  }
  return (
    <main className="narrow" id="main">
      <LanguageSwitch label={t('app.language')} current={LANG} onChoose={chooseLang} />
      <h1>{t('invitation.title')}</h1>
      <p className="intro">{t('invitation.intro')}</p>
      <form onSubmit={submit} noValidate>
        <ErrorBox error={error} />
        <Field
          label={t('security.new')}
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={setPassword}
          hint={t('invitation.hint')}
        />
        <Field
          label={t('invitation.repeat')}
          type="password"
          autoComplete="new-password"
          required
          value={again}
          onChange={setAgain}
          error={mismatch}
        />
        <button type="submit" className="primary" disabled={busy}>
          {t('invitation.accept')}
        </button>
      </form>
    </main>
  );
}
