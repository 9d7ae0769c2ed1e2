import { useQuery } from '@tanstack/react-query';
import { op } from '../../lib/api.ts';
import { when } from '../../lib/time.ts';
import { t } from '../../lib/i18n.ts';

export const reconciliationKey = ['reconciliation'] as const;

/** The stop holds every client operation that moves money; it is shown on every page while it holds. */
export function StopBanner({ linkTo }: { linkTo: (children: React.ReactNode) => React.ReactNode }) {
  const state = useQuery({ queryKey: reconciliationKey, queryFn: () => op.reconciliation.get(), refetchInterval: 10_000 });
  if (!state.data || state.data.reconciled) return null;
  return (
    <div className="banner banner-stop" role="alert">
      <strong>{t('stop.title')}</strong> {t('stop.text', { when: when(state.data.changedAt) })} {linkTo(t('stop.review'))}
    </div>
  );
}
