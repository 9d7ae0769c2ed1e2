import type { UseCaseDeps } from '../ports.ts';
import type { PlatformStateRow } from '../repositories.ts';

type Deps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;

/**
 * A person reviewed the mismatch: client operations that move money resume (docs/operator-guide.md), audited with
 * the run that stopped them. Already reconciled: nothing changes, nothing is recorded.
 */
export async function resolveReconciliation(d: Deps, actor: string, note: string | null): Promise<PlatformStateRow> {
  const at = d.clock.now();
  await d.store.uow.run(async (tx) => {
    // The same lock as a run's: a resolve and a run take turns.
    const s = await d.store.reconciliation.lockState(tx);
    if (s.reconciled) return;
    await d.store.reconciliation.markReconciled(tx, at);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'reconciliation.resolve',
      subjectType: 'platform',
      subjectId: 'platform',
      before: { reconciled: false, stoppedByRunId: s.stoppedByRunId, since: s.changedAt.toISOString() },
      after: { reconciled: true, stoppedByRunId: s.stoppedByRunId, note },
    });
  });
  return d.store.reconciliation.state();
}
