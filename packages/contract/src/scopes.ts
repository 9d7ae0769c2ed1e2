/** Scopes of the spec (Authentication §5) plus the role permission that allows issuing keys (CONTRACT §3). */
export const SCOPES = ['portal:read', 'portal:trade', 'portal:deposit', 'portal:destinations', 'portal:withdraw'] as const;
export type Scope = (typeof SCOPES)[number];
export const PERMISSIONS = [...SCOPES, 'portal:api_keys'] as const;
export type Permission = (typeof PERMISSIONS)[number];
