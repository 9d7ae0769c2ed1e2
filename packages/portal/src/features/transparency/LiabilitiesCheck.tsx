import { CambioError } from '@cambio/sdk';
import { useQuery } from '@tanstack/react-query';
import { usePortal } from '../../lib/portal-context.ts';
import { logMonitorOf } from './log-monitor.ts';
import { text } from './texts.ts';

/**
 * Whether what the organization is owed is counted in the published liabilities, and is what it should be:
 * its own leaves and paths, the published note (signature checked), the sums and hashes folded up to the
 * roots, each amount compared with the sum of the organization's own ledger rows under the snapshot's
 * log size, all in this browser. A failure names the asset and both amounts.
 */
export function LiabilitiesCheck() {
  const { sdk, lang } = usePortal();
  const q = useQuery({
    queryKey: ['liabilities-check'],
    queryFn: async () => {
      try {
        // The key the note is checked with is the pinned one: the monitor refuses a key the service changed.
        await logMonitorOf(sdk).update();
        return await sdk.transparency.verifyMyLiabilities(sdk);
      } catch (e) {
        if (e instanceof CambioError && e.code === 'liabilities.no_snapshot') return null;
        throw e;
      }
    },
    staleTime: 60_000,
  });
  let message: string;
  let detail: string | null = null;
  if (q.isPending) message = text(lang, 'liabilitiesChecking');
  else if (q.data === null) message = text(lang, 'liabilitiesNone');
  else if (q.error || !q.data.ok) {
    message = text(lang, 'liabilitiesFailed');
    detail = q.data ? (q.data.problem ?? q.data.assets.find((a) => !a.ok)?.problem ?? null) : null;
  } else {
    message = text(lang, 'liabilitiesOk');
    detail = text(lang, 'liabilitiesDetail', {
      id: q.data.published.snapshotId,
      size: String(q.data.published.treeSize),
      at: new Date(q.data.published.takenAt).toLocaleString(lang),
    });
  }
  return (
    <section aria-label={text(lang, 'liabilitiesTitle')} className="liabilities-check">
      <p role="status">{message}</p>
      {detail && <p className="small muted">{detail}</p>}
    </section>
  );
}
