import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Field } from './Field.tsx';
import { ErrorBox } from './ErrorBox.tsx';
import { useActionKey } from './kit-context.tsx';

export interface ChangePasswordTexts {
  title: string;
  current: string;
  next: string;
  submit: string;
  /** Said once the password is changed. */
  changed: string;
}
export interface ChangePasswordBody {
  currentPassword: string;
  newPassword: string;
}

/**
 * The signed-in person's own password: the current one and the new one. The server checks both and
 * ends the person's other sessions; the form relays its refusal, or says the change is made and
 * empties both fields. `change` is the app's own call (its SDK client); the words are the app's.
 */
export function ChangePassword({
  texts,
  change,
  done,
  className,
  required,
}: {
  texts: ChangePasswordTexts;
  change: (body: ChangePasswordBody, idempotencyKey: string) => Promise<unknown>;
  /** How the app shows `texts.changed` (a status note of its own look). */
  done: (text: string) => ReactNode;
  /** The section's class (the desk's `panel`). */
  className?: string;
  /** Marks both fields required (the portal's). */
  required?: boolean;
}) {
  const act = useActionKey();
  const titleId = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [changed, setChanged] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    setChanged(false);
    try {
      const body: ChangePasswordBody = { currentPassword: current, newPassword: next };
      await act.run(body, (idempotencyKey) => change(body, idempotencyKey));
      setChanged(true);
      setCurrent('');
      setNext('');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={titleId} className={className}>
      <h2 id={titleId}>{texts.title}</h2>
      <form onSubmit={submit} noValidate>
        <ErrorBox error={error} />
        {changed && done(texts.changed)}
        <Field
          label={texts.current}
          type="password"
          value={current}
          onChange={setCurrent}
          autoComplete="current-password"
          required={required}
        />
        <Field label={texts.next} type="password" value={next} onChange={setNext} autoComplete="new-password" required={required} />
        <button type="submit" disabled={busy}>
          {texts.submit}
        </button>
      </form>
    </section>
  );
}
