import { clock } from '../lib/time.ts';
import { t } from '../lib/i18n.ts';

/** Every list says when it was read (UI.md). */
export function ReadAt({ at, fetching }: { at: number; fetching?: boolean }) {
  if (!at) return null;
  return (
    <p className="read-at small" aria-live="off">
      {t('common.readAt', { time: clock(at) })}
      {fetching ? t('common.refreshing') : ''}
    </p>
  );
}
