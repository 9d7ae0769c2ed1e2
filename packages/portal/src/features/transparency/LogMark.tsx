import { CambioError, verifyInclusion, type LedgerEntry } from '@cambio/sdk';
import { useQuery } from '@tanstack/react-query';
import { usePortal } from '../../lib/portal-context.ts';
import { useMonitoredCheckpoint } from './log-monitor.ts';
import { text } from './texts.ts';

/** The leaf as its canonical JSON says (docs/transparency.md). */
interface Leaf {
  entryId?: string;
  kind?: string;
  postings?: Array<{ account: string; assetSymbol: string; amountMinor: string }>;
}

/**
 * Whether the leaf is the row's entry and its postings on the organization's own account of the row
 * (exactly `org:<id>:<account>`, in the row's asset) add up to the row's amount, with the row's kind.
 */
export function leafMatchesRow(
  leaf: Leaf,
  row: Pick<LedgerEntry, 'entryId' | 'kind' | 'account' | 'assetSymbol' | 'amountMinor'>,
  organizationId: string,
): boolean {
  if (leaf.entryId !== row.entryId || leaf.kind !== row.kind) return false;
  const own = (leaf.postings ?? []).filter(
    (p) => p.account === `org:${organizationId}:${row.account}` && p.assetSymbol === row.assetSymbol,
  );
  return own.length > 0 && own.reduce((sum, p) => sum + BigInt(p.amountMinor), 0n) === BigInt(row.amountMinor);
}

/**
 * A ledger row's "verified in the log" mark: the latest signed checkpoint (its signature checked here),
 * the entry's inclusion proof under its root, and the leaf's postings on the organization's own account
 * equal to the row shown (asset, amount, kind), verified in this browser. An entry not yet logged, or not
 * yet under a signed checkpoint, says so and is asked for again.
 */
export function LogMark({ row }: { row: Pick<LedgerEntry, 'entryId' | 'kind' | 'account' | 'assetSymbol' | 'amountMinor'> }) {
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
      try {
        const cp = checkpoint.data!;
        const proof = await sdk.transparency.proof(entryId, cp.treeSize);
        const included = await verifyInclusion(proof, cp.rootHash);
        const matches = session !== null && leafMatchesRow(JSON.parse(proof.leaf) as Leaf, row, session.organization.id);
        return included && matches ? ('verified' as const) : ('failed' as const);
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
