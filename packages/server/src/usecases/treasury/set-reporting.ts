import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';
import type { ReportingChoice } from '../repositories.ts';

type Deps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;

/**
 * A member chooses the organization's reporting currency (a listed asset) or the language of its
 * statements; a field left out keeps its value. Recorded in the audit trail: it changes what every
 * member reads as the organization's total.
 */
export async function setReporting(
  d: Deps,
  actor: string,
  organizationId: string,
  change: { reportingCurrency?: string | undefined; language?: 'en' | 'es' | null | undefined },
): Promise<ReportingChoice> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    if (change.reportingCurrency !== undefined && !(await d.store.marketAssets.isListed(tx, change.reportingCurrency)))
      throw new DomainError('market.asset_not_listed', { asset: change.reportingCurrency });
    const before = await d.store.treasury.lockReporting(tx, organizationId);
    const after: ReportingChoice = {
      reportingCurrency: change.reportingCurrency ?? before?.reportingCurrency ?? null,
      language: change.language !== undefined ? change.language : (before?.language ?? null),
      updatedAt: at,
    };
    await d.store.treasury.saveReporting(tx, organizationId, after, actor);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'organization.reporting',
      subjectType: 'organization',
      subjectId: organizationId,
      before: before ? { reportingCurrency: before.reportingCurrency, language: before.language } : null,
      after: { reportingCurrency: after.reportingCurrency, language: after.language },
    });
    return after;
  });
}
