import { fill } from './i18n.ts';
import { formatTime } from './format.ts';
import { useWebKit } from './kit-context.tsx';

/** The kit's own words: the line is the same in the portal and the desk. */
const WORDS = {
  en: { readAt: 'Read at {time}', refreshing: ' · refreshing…' },
  es: { readAt: 'Leído a las {time}', refreshing: ' · actualizando…' },
};

/** Every list says when it was read (docs/design/people-and-apps.md), and whether a newer read is on its way. */
export function ReadAt({ at, fetching }: { at: number; fetching?: boolean }) {
  const { lang = 'en' } = useWebKit();
  if (!at) return null;
  const w = WORDS[lang];
  return (
    <p className="read-at small muted" aria-live="off">
      {fill(w.readAt, { time: formatTime(at, lang) })}
      {fetching ? w.refreshing : ''}
    </p>
  );
}
