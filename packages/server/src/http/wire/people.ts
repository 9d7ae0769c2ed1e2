import type { OrgKey, TeamMember } from '../../store/members-store.ts';

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** A member as the portal's team and the desk show it (docs/design/people-and-apps.md). */
export const memberWire = (m: TeamMember) => ({
  id: m.id,
  name: m.name,
  email: m.email,
  permissions: m.permissions,
  status: m.status,
  totpEnrolled: m.totpEnrolled,
  createdAt: m.createdAt.toISOString(),
});

/** A key of an organization as the portal and the desk list it: never its secret. */
export const keyWire = (k: OrgKey) => ({
  id: k.id,
  prefix: k.prefix,
  scopes: k.scopes,
  issuedBy: k.issuedBy,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: iso(k.lastUsedAt),
  expiresAt: iso(k.expiresAt),
  allowedIps: k.allowedIps,
  revokedAt: iso(k.revokedAt),
  name: k.name,
});
