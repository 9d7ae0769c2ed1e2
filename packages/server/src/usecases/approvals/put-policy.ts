import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';

type Deps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;

/**
 * Sets the four-eyes threshold of a listed asset (docs/design/people-and-apps.md): from this amount two different persons
 * must approve; null removes it (one approval, as without a policy). Audited, even when unchanged.
 */
export async function putApprovalPolicy(
  d: Deps,
  actor: string,
  asset: string,
  from: bigint | null,
): Promise<{ assetSymbol: string; secondApprovalFrom: bigint | null }> {
  if (!(await d.store.marketAssets.get(asset))) throw new DomainError('market.asset_not_listed', { asset });
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    const cur = await d.store.approvals.policyIn(tx, asset);
    await d.store.approvals.setPolicy(tx, at, asset, from);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'policy.approvals.put',
      subjectType: 'asset',
      subjectId: asset,
      before: { secondApprovalFromMinor: cur?.toString() ?? null },
      after: { secondApprovalFromMinor: from?.toString() ?? null },
    });
    return { assetSymbol: asset, secondApprovalFrom: from };
  });
}
