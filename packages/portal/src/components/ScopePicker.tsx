import { useId } from 'react';
import { permissionWord } from '../lib/i18n.ts';
import { usePortal } from '../lib/portal-context.ts';

/** One checkbox per scope, labelled with the scope's own name (docs/api-guide.md, "The portal") and described in words; only those offered. */
export function ScopePicker({
  legend,
  offered,
  chosen,
  onChange,
  error,
}: {
  legend: string;
  offered: string[];
  chosen: string[];
  onChange: (v: string[]) => void;
  error?: string | null;
}) {
  const id = useId();
  const { lang } = usePortal();
  return (
    <fieldset className={error ? 'field-error' : undefined} aria-describedby={error ? `${id}-err` : undefined}>
      <legend>{legend}</legend>
      {error && (
        <p id={`${id}-err`} className="inline-error">
          {error}
        </p>
      )}
      {offered.map((s) => {
        const words = permissionWord(lang, s);
        const wordsId = `${id}-${s.replace(/\W/g, '-')}`;
        return (
          <span key={s} className="choice">
            <label>
              <input
                type="checkbox"
                checked={chosen.includes(s)}
                aria-describedby={words !== s ? wordsId : undefined}
                onChange={(e) => onChange(e.target.checked ? [...chosen, s] : chosen.filter((x) => x !== s))}
              />{' '}
              {s}
            </label>
            {words !== s && (
              <span className="small muted" id={wordsId}>
                {words}
              </span>
            )}
          </span>
        );
      })}
    </fieldset>
  );
}
