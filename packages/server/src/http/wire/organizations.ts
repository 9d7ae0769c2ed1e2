import { canOperate, limitsAsStrings, type Organization } from '../../domain/organizations/organization.ts';

/** An organization as the operator sees it. */

export const orgWire = (o: Organization) => ({
  id: o.id,
  name: o.name,
  status: o.status,
  limits: limitsAsStrings(o.limits),
  canOperate: canOperate(o),
  requireTotp: o.requireTotp,
  createdAt: o.createdAt.toISOString(),
  updatedAt: o.updatedAt.toISOString(),
});
