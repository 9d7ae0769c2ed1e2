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
  const q = useQuery({
    queryKey: ['log-mark', entryId],
    queryFn: async () => {
      try {
        return (await sdk.transparency.verifyEntry(entryId)).ok ? 'verified' as const : 'failed' as const;
      } catch (e) {
        // Logged but not yet under the checkpoint read a moment ago (the next one is signed within seconds):
        // still on its way, not a failed proof.
        if (e instanceof CambioError && (e.code === 'transparency.not_yet_logged' || e.code === 'transparency.bad_tree_size')) return 'pending' as const;
        throw e;
      }
    },
    staleTime: 60_000,
    refetchInterval: (query) => (query.state.data === 'pending' ? 3_000 : false),
  });
  const state = q.isPending ? 'checking' : q.error ? 'failed' : q.data;
  const label = text(lang, state);
  return (
    <span className={`log-mark log-mark-${state}`} role="img" aria-label={label} title={label}>
      {state === 'verified' ? '✓' : state === 'failed' ? '✗' : '…'}
    </span>
  );
}
