import { fill } from './i18n.ts';
import { useWebKit } from './kit-context.tsx';

/** The kit's own words: the line is the same in the portal and the desk. */
const WORDS = {
  en: { loading: 'Loading…', loadingWhat: 'Loading {what}…' },
  es: { loading: 'Cargando…', loadingWhat: 'Cargando {what}…' },
};

/** A read on its way, announced politely; `what` names it ("Loading pairs…"). */
export function Loading({ what }: { what?: string }) {
  const { lang = 'en' } = useWebKit();
  const w = WORDS[lang];
  return (
    <p className="loading" role="status">
      {what ? fill(w.loadingWhat, { what }) : w.loading}
    </p>
  );
}
