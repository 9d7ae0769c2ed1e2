import type { Lang } from '@cambio/contract';
import { LANGS } from './i18n.ts';

/** English / Español, each named in its own language; the chosen one pressed. */
export function LanguageSwitch({ label, current, onChoose }: { label: string; current: Lang; onChoose: (lang: Lang) => void }) {
  return (
    <div className="lang" role="group" aria-label={label}>
      {LANGS.map((l) => (
        <button
          key={l.lang}
          type="button"
          className="link"
          lang={l.lang}
          aria-pressed={current === l.lang}
          onClick={() => onChoose(l.lang)}
        >
          {l.name}
        </button>
      ))}
    </div>
  );
}
