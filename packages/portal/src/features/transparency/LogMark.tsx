import { CambioError, type LedgerEntry } from '@cambio/sdk';
import { useQuery } from '@tanstack/react-query';
import { usePortal } from '../../lib/portal-context.ts';
import { useMonitoredCheckpoint } from './log-monitor.ts';
import { text } from './texts.ts';

/**
 * A ledger row's "verified in the log" mark: the latest signed checkpoint (its signature checked here),
 * the entry's inclusion proof under its root, and the leaf's postings on the organization's own account
 * equal to the row shown (asset, amount, kind), verified in this browser. An entry not yet logged, or not
 * yet under a signed checkpoint, says so and is asked for again.
 */
export function LogMark({ row }: { row: Pick<LedgerEntry, 'entryId' | 'kind' | 'account' | 'assetSymbol' | 'amountMinor' | 'createdAt'> }) {
  const { sdk, lang, session } = usePortal();
  const entryId = row.entryId;
  // One signed checkpoint for every row on the page; a row still on its way asks for a newer one, and
  // rows re-verify under it (the tree size is part of their key).
  // Verified with the pinned key and consistent with the checkpoint this browser saw before (log-monitor.ts).
  const checkpoint = useMonitoredCheckpoint(sdk);
  const q = useQuery({
    queryKey: ['log-mark', entryId, row.account, row.assetSymbol, String(row.amountMinor), checkpoint.data?.treeSize],
    enabled: checkpoint.data !== undefined,
    queryFn: async () => {
      if (session === null) return 'failed' as const;
      try {
        // The SDK's check: inclusion under the checkpoint, and the leaf's own postings equal to this row.
        const check = await sdk.transparency.verifyEntry(row, { organizationId: session.organization.id, checkpoint: checkpoint.data! });
        return check.ok ? ('verified' as const) : ('failed' as const);
      } catch (e) {
        // Logged but not yet under the checkpoint read a moment ago (the next one is signed within seconds):
        // still on its way, not a failed proof.
        if (e instanceof CambioError && (e.code === 'transparency.not_yet_logged' || e.code === 'transparency.bad_tree_size')) {
          void checkpoint.refetch();
          return 'pending' as const;
        }
        throw e;
      }
    },
    staleTime: 60_000,
    refetchInterval: (query) => (query.state.data === 'pending' ? 3_000 : false),
  });
  const state = checkpoint.error || q.error ? 'failed' : q.isPending ? 'checking' : q.data;
  const label = text(lang, state);
  return (
    <span className={`log-mark log-mark-${state}`} role="img" aria-label={label} title={label}>
      {state === 'verified' ? '✓' : state === 'failed' ? '✗' : '…'}
    </span>
  );
}
