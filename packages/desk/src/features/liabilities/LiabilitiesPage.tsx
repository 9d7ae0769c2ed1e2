import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Amount, ErrorBox, Loading, ReadAt } from '@cambio/web-kit';
import { Empty, Page } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { when } from '../../lib/time.ts';
import { t } from '../../lib/i18n.ts';

const key = ['liabilities-snapshots'];

/**
 * Proof of liabilities (docs/transparency.md): the snapshots of what the platform owes every organization, each
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
    <Page
      title={t('nav.liabilities')}
      intro={t('liab.intro')}
      actions={
        admin ? (
          <button type="button" className="primary" disabled={take.isPending} onClick={() => take.mutate()}>
            {take.isPending ? t('liab.taking') : t('liab.take')}
          </button>
        ) : undefined
      }
    >
      <ErrorBox error={take.error} />
      {take.data && <p role="status">{t('liab.taken', { when: when(take.data.takenAt) })}</p>}
      {list.isPending ? (
        <Loading what={t('liab.loading')} />
      ) : list.error ? (
        <ErrorBox error={list.error} />
      ) : list.data.length === 0 ? (
        <Empty>{t('liab.none')}</Empty>
      ) : (
        <>
          <ReadAt at={list.dataUpdatedAt} fetching={list.isFetching} />
          {list.data.map((s, i) => (
            <section key={s.snapshotId} aria-labelledby={`snap-${s.snapshotId}`}>
              <h2 id={`snap-${s.snapshotId}`}>
                {i === 0 ? t('liab.published') : ''}
                {when(s.takenAt)}
              </h2>
              <p className="small">
                {s.snapshotId} · {s.daily ? t('liab.daily') : t('liab.onDemand')}
              </p>
              <table>
                <caption className="visually-hidden">{t('liab.caption', { id: s.snapshotId })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('common.asset')}</th>
                    <th scope="col" className="num">
                      {t('liab.totalOwed')}
                    </th>
                    <th scope="col" className="num">
                      {t('nav.organizations')}
                    </th>
                    <th scope="col">{t('liab.root')}</th>
                  </tr>
                </thead>
                <tbody>
                  {s.assets.map((a) => (
                    <tr key={a.assetSymbol}>
                      <th scope="row">{a.assetSymbol}</th>
                      <td className="num">
                        <Amount minor={a.totalMinor} decimals={a.assetDecimals} symbol={a.assetSymbol} />
                      </td>
                      <td className="num">{a.leafCount}</td>
                      <td>
                        <code className="hash">{a.rootHash}</code>
                      </td>
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
