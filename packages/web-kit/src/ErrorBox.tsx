import { useEffect, useRef } from 'react';
import { fill } from './i18n.ts';
import { useWebKit } from './kit-context.tsx';

/** The kit's own words: the box is the same in the portal and the desk. */
const WORDS = {
  en: { title: 'There is a problem', trace: 'Reference for support: {traceId}' },
  es: { title: 'Hay un problema', trace: 'Referencia para soporte: {traceId}' },
};

/**
 * A failed call at the top of a form, a dialog or a page (GOV.UK's error summary): focused when it
 * appears, so it is read out. The words are the app's (`describeError` of the kit context, naming the
 * form's `fields`: wire name → label); the traceId, and in the desk the code, are small print for support.
 */
export function ErrorBox({ error, fields, id }: { error: unknown; fields?: Record<string, string>; id?: string }) {
  const { lang = 'en', describeError, showErrorCode, onErrorShown } = useWebKit();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!error) return;
    ref.current?.focus();
    onErrorShown?.(error);
  }, [error, onErrorShown]);
  if (!error) return null;
  const d = describeError(error, fields);
  const w = WORDS[lang];
  const small = [showErrorCode ? d.code : null, d.traceId ? fill(w.trace, { traceId: d.traceId }) : null].filter(Boolean).join(' · ');
  return (
    <div className="error-box" role="alert" tabIndex={-1} ref={ref} id={id}>
      <h2 className="error-title">{w.title}</h2>
      <p>{d.message}</p>
      {small && <p className="small">{small}</p>}
    </div>
  );
}
