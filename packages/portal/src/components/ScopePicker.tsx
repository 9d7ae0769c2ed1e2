import { useId } from 'react';

/** One checkbox per scope, labelled with the scope's own name (CONTRACT §8); only those offered. */
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
  return (
    <fieldset className={error ? 'field-error' : undefined} aria-describedby={error ? `${id}-err` : undefined}>
      <legend>{legend}</legend>
      {error && (
        <p id={`${id}-err`} className="inline-error">
          {error}
        </p>
      )}
      {offered.map((s) => (
        <label key={s} className="choice">
          <input
            type="checkbox"
            checked={chosen.includes(s)}
            onChange={(e) => onChange(e.target.checked ? [...chosen, s] : chosen.filter((x) => x !== s))}
          />{' '}
          {s}
        </label>
      ))}
    </fieldset>
  );
}
