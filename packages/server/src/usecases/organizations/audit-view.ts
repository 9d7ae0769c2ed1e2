import { limitsAsStrings, type Organization } from '../../domain/organizations/organization.ts';

/** An organization as its audit entries show it: limits as decimal strings (JSON has no bigint). */
export const organizationAudit = (o: Organization) => ({
  name: o.name,
  status: o.status,
  limits: limitsAsStrings(o.limits),
  requireTotp: o.requireTotp,
});
