/**
 * Scopes a key can carry: the spec's five (Authentication §5) and `portal:webhooks` (docs/design/people-and-apps.md, docs/api-guide.md).
 * Permissions of a member's role: the scopes plus what only people do in the portal, `portal:api_keys`
 * (issue and revoke keys), `portal:team` (invite members, set roles no wider than one's own), `portal:policy`
 * (set the organization's approval rules) and `portal:approve` (approve or reject a request that waits
 * for the organization; docs/controls.md) and `portal:audit` (read the organization's own audit trail).
 */
export const SCOPES = [
  'portal:read',
  'portal:trade',
  'portal:deposit',
  'portal:destinations',
  'portal:withdraw',
  'portal:webhooks',
] as const;
export type Scope = (typeof SCOPES)[number];
export const PERMISSIONS = [...SCOPES, 'portal:api_keys', 'portal:team', 'portal:policy', 'portal:approve', 'portal:audit'] as const;
export type Permission = (typeof PERMISSIONS)[number];
