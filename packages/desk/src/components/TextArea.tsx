import { useId, type ReactNode } from 'react';

/** A labelled text box of a few lines (a reason, a note), with its hint. */
export function TextArea({
  label,
  hint,
  value,
  onChange,
  required,
}: {
  label: string;
  hint?: ReactNode;
  value: string;
  onChange: (v: string) => void;
  required?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <textarea
        id={id}
        value={value}
        required={required}
        rows={3}
        maxLength={500}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
    </div>
  );
}
