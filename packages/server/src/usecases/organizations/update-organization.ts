import { DomainError } from '../../domain/errors.ts';
import type { Limits, Organization, OrgStatus } from '../../domain/organizations/organization.ts';
import type { UseCaseDeps } from '../ports.ts';
import { organizationAudit } from './audit-view.ts';

type Deps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;

/**
 * The operator changes an organization's status, limits or two-step sign-in requirement; only the fields
 * present change. The row is locked while it is read and written, so the audit's `before` is what was replaced.
 * Authentication reads the new values from the next request on (the auth cache hears the change).
 */
export async function updateOrganization(
  d: Deps,
  actor: string,
  id: string,
  patch: { status?: OrgStatus; limits?: Limits; requireTotp?: boolean },
): Promise<Organization> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    const before = await d.store.organizations.lock(tx, id);
    if (!before) throw new DomainError('organizations.not_found');
    const after = await d.store.organizations.patch(tx, id, at, patch);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'organization.update',
      subjectType: 'organization',
      subjectId: id,
      before: organizationAudit(before),
      after: organizationAudit(after),
    });
    return after;
  });
}
