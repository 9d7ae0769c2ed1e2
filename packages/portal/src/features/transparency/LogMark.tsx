import { CambioError } from '@cambio/sdk';
import { useQuery } from '@tanstack/react-query';
import { usePortal } from '../../lib/portal-context.ts';
import { text } from './texts.ts';

/**
 * A ledger row's "verified in the log" mark: the latest signed checkpoint (its signature checked here)
 * and the entry's inclusion proof under its root, verified in this browser by the SDK. An entry not yet
 * logged, or not yet under a signed checkpoint, says so and is asked for again.
 */
export function LogMark({ entryId }: { entryId: string }) {
  const { sdk, lang } = usePortal();
  // One signed checkpoint for every row on the page; a row still on its way asks for a newer one, and
  // rows re-verify under it (the tree size is part of their key).
  const checkpoint = useQuery({ queryKey: ['log-checkpoint'], queryFn: () => sdk.transparency.checkpoint(), staleTime: 2_000 });
  const q = useQuery({
    queryKey: ['log-mark', entryId, checkpoint.data?.treeSize],
    enabled: checkpoint.data !== undefined,
    queryFn: async () => {
      try {
        return (await sdk.transparency.verifyEntry(entryId, checkpoint.data)).ok ? ('verified' as const) : ('failed' as const);
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
