import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Amount } from '@cambio/web-kit';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { ReadAt } from '../../components/ReadAt.tsx';
import { Empty, Loading, Page } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { when } from '../../lib/time.ts';

const key = ['liabilities-snapshots'];

/**
 * Proof of liabilities (CONTRACT §12): the snapshots of what the platform owes every organization, each
 * asset's published Merkle sum root and total. An admin takes one now; one is taken every day anyway.
 */
export function LiabilitiesPage() {
  const { staff } = useDesk();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: key, queryFn: () => op.liabilities.snapshots({ limit: 20 }) });
  const take = useMutation({
    mutationFn: () => op.liabilities.takeSnapshot(),
    onSuccess: () => qc.invalidateQueries({ queryKey: key }),
  });
  const admin = staff.role === 'admin' && staff.totpEnrolled;
  return (
    <Page title="Liabilities" intro="What the platform owes every organization (available + held), per asset: the root and total of each snapshot's Merkle sum tree, published at /transparency/liabilities/latest. Each organization checks its own share against them."
      actions={admin ? <button type="button" className="primary" disabled={take.isPending} onClick={() => take.mutate()}>{take.isPending ? 'Taking a snapshot…' : 'Take a snapshot'}</button> : undefined}>
      <ErrorNote error={take.error} />
      {take.data && <p role="status">Snapshot {take.data.snapshotId} taken and published.</p>}
      {list.isPending ? <Loading what="the snapshots" /> : list.error ? <ErrorNote error={list.error} /> : list.data.length === 0 ? <Empty>No snapshot yet: one is taken daily at 00:00 UTC.</Empty> : (
        <>
          <ReadAt at={list.dataUpdatedAt} fetching={list.isFetching} />
          {list.data.map((s, i) => (
            <section key={s.snapshotId} aria-labelledby={`snap-${s.snapshotId}`}>
              <h2 id={`snap-${s.snapshotId}`}>{i === 0 ? 'Published: ' : ''}{when(s.takenAt)}</h2>
              <p className="small">{s.snapshotId} · {s.daily ? 'daily' : 'on demand'}</p>
              <table>
                <caption className="visually-hidden">Roots and totals of snapshot {s.snapshotId}</caption>
                <thead><tr><th scope="col">Asset</th><th scope="col" className="num">Total owed</th><th scope="col" className="num">Organizations</th><th scope="col">Root hash</th></tr></thead>
                <tbody>
                  {s.assets.map((a) => (
                    <tr key={a.assetSymbol}>
                      <th scope="row">{a.assetSymbol}</th>
                      <td className="num"><Amount minor={a.totalMinor} decimals={a.assetDecimals} symbol={a.assetSymbol} /></td>
                      <td className="num">{a.leafCount}</td>
                      <td><code className="hash">{a.rootHash}</code></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ))}
        </>
      )}
    </Page>
  );
}
