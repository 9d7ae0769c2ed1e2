import { chooseLang, LANG, LANGS, t } from '../lib/i18n.ts';

/** English / Español, each named in its own language. */
export function LanguageSwitch() {
  return (
    <div className="lang" role="group" aria-label={t('app.language')}>
      {LANGS.map((l) => (
        <button key={l.lang} type="button" className="link" lang={l.lang} aria-pressed={LANG === l.lang} onClick={() => { if (l.lang !== LANG) chooseLang(l.lang); }}>
          {l.name}
        </button>
      ))}
    </div>
  );
}
