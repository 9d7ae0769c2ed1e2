import type { Lang } from '@cambio/contract';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Field } from './Field.tsx';
import { ErrorBox } from './ErrorBox.tsx';
import { useActionKey } from './kit-context.tsx';

/**
 * A forgotten password, the same in both apps: ask for the mail, then set a new password from its
 * link. The words are the kit's own (the two pages say the same in the portal and the desk).
 */
const WORDS = {
  en: {
    forgot: 'Forgot password?',
    askTitle: 'Reset your password',
    askIntro: 'Enter the email you sign in with. We mail a link to choose a new password.',
    email: 'Email',
    send: 'Send the link',
    sent: 'If an account uses this address, a mail with a link to choose a new password is on its way. The link works once, for 30 minutes.',
    back: 'Back to sign-in',
    setTitle: 'Choose a new password',
    password: 'New password',
    confirm: 'Repeat the password',
    hint: '12 characters or more; a phrase of several words is easy to remember and hard to guess.',
    mismatch: 'The two passwords differ.',
    save: 'Set the password',
    done: 'Your password is set, and every session of yours has ended. Sign in with the new password.',
    signIn: 'Sign in',
    noToken: 'This page opens from the link in the password-reset mail.',
  },
  es: {
    forgot: '¿Olvidó su contraseña?',
    askTitle: 'Restablecer la contraseña',
    askIntro: 'Ingrese el correo con el que inicia sesión. Le enviaremos un enlace para elegir una contraseña nueva.',
    email: 'Correo',
    send: 'Enviar el enlace',
    sent: 'Si una cuenta usa esta dirección, va en camino un correo con un enlace para elegir una contraseña nueva. El enlace sirve una sola vez, durante 30 minutos.',
    back: 'Volver a iniciar sesión',
    setTitle: 'Elija una contraseña nueva',
    password: 'Contraseña nueva',
    confirm: 'Repita la contraseña',
    hint: '12 caracteres o más; una frase de varias palabras es fácil de recordar y difícil de adivinar.',
    mismatch: 'Las dos contraseñas no coinciden.',
    save: 'Guardar la contraseña',
    done: 'Su contraseña quedó guardada y todas sus sesiones se cerraron. Inicie sesión con la contraseña nueva.',
    signIn: 'Iniciar sesión',
    noToken: 'Esta página se abre desde el enlace del correo para restablecer la contraseña.',
  },
} as const satisfies Record<Lang, Record<string, string>>;

/** The words of the sign-in form's link to the forgotten-password page. */
export const forgotPasswordLabel = (lang: Lang) => WORDS[lang].forgot;

/** `…/forgot-password`: the email; the answer is the same whether or not it is a person's. */
export function ForgotPassword({
  lang,
  request,
  signInHref,
  top,
}: {
  lang: Lang;
  request: (email: string, idempotencyKey: string) => Promise<void>;
  /** The app's sign-in page. */
  signInHref: string;
  top?: ReactNode;
}) {
  const w = WORDS[lang];
  const act = useActionKey();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || !email.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await act.run({ email: email.trim() }, (key) => request(email.trim(), key));
      setSent(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="narrow">
      {top}
      <h1>{w.askTitle}</h1>
      {sent ? (
        <p role="status">{w.sent}</p>
      ) : (
        <>
          <p className="intro">{w.askIntro}</p>
          <form onSubmit={submit} noValidate>
            <ErrorBox error={error} />
            <Field label={w.email} type="email" value={email} onChange={setEmail} autoComplete="username" inputMode="email" required />
            <button type="submit" className="primary" disabled={busy}>
              {w.send}
            </button>
          </form>
        </>
      )}
      <p>
        <a href={signInHref}>{w.back}</a>
      </p>
    </main>
  );
}

/**
 * `…/reset-password#<token>`: the token is in the fragment, which the browser never sends to a server;
 * once the password is set it is dropped from the address bar and the history.
 */
export function ResetPassword({
  lang,
  complete,
  signInHref,
  top,
}: {
  lang: Lang;
  complete: (p: { token: string; password: string }, idempotencyKey: string) => Promise<void>;
  signInHref: string;
  top?: ReactNode;
}) {
  const w = WORDS[lang];
  const act = useActionKey();
  const [token] = useState(() => decodeURIComponent(window.location.hash.replace(/^#/, '')));
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setMismatch(password !== confirm);
    if (busy || password !== confirm) return;
    setBusy(true);
    setError(null);
    try {
      await act.run({ token, password }, (key) => complete({ token, password }, key));
      window.history.replaceState(null, '', window.location.pathname);
      setDone(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="narrow">
      {top}
      <h1>{w.setTitle}</h1>
      {done ? (
        <p role="status">{w.done}</p>
      ) : !token ? (
        <p className="error-box" role="alert">
          {w.noToken}
        </p>
      ) : (
        <form onSubmit={submit} noValidate>
          <ErrorBox error={error} />
          <Field
            label={w.password}
            type="password"
            value={password}
            onChange={setPassword}
            autoComplete="new-password"
            hint={w.hint}
            required
          />
          <Field
            label={w.confirm}
            type="password"
            value={confirm}
            onChange={setConfirm}
            autoComplete="new-password"
            required
            error={mismatch ? w.mismatch : null}
          />
          <button type="submit" className="primary" disabled={busy}>
            {w.save}
          </button>
        </form>
      )}
      <p>
        <a href={signInHref}>{done ? w.signIn : w.back}</a>
      </p>
    </main>
  );
}
