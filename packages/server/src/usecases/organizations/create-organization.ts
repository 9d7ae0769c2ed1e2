import type { Limits, Organization, OrgStatus } from '../../domain/organizations/organization.ts';
import type { UseCaseDeps } from '../ports.ts';
import { organizationAudit } from './audit-view.ts';

type Deps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;
export interface NewOrganization {
  name: string;
  status: OrgStatus;
  limits: Limits;
}

/** A new organization (names need not be unique), audited in the same transaction. */
export async function createOrganization(d: Deps, actor: string, r: NewOrganization): Promise<Organization> {
  const at = d.clock.now();
  const id = d.ids.next('org');
  return d.store.uow.run(async (tx) => {
    const org = await d.store.organizations.insert(tx, id, at, r);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'organization.create',
      subjectType: 'organization',
      subjectId: id,
      before: null,
      after: organizationAudit(org),
    });
    return org;
  });
}
