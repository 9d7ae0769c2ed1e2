/**
 * Scopes a key can carry: the spec's five (Authentication §5) and `portal:webhooks` (docs/design/people-and-apps.md, docs/api-guide.md).
 * Permissions of a member's role: the scopes plus what only people do in the portal, `portal:api_keys`
 * (issue and revoke keys) and `portal:team` (invite members, set roles no wider than one's own).
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
export const PERMISSIONS = [...SCOPES, 'portal:api_keys', 'portal:team'] as const;
export type Permission = (typeof PERMISSIONS)[number];
