/**
 * The people of `/portal/v1` (docs/design/people-and-apps.md). Scopes and permissions: the spec's
 * five plus `portal:api_keys`, `portal:team`, `portal:webhooks`.
 */
export type MemberStatus = 'invited' | 'active' | 'removed';

export interface PortalMember {
  id: string;
  name: string;
  email: string;
  permissions: string[];
  status: MemberStatus;
  totpEnrolled: boolean;
  createdAt: string;
}

export interface PortalOrganization {
  id: string;
  name: string;
  status: string;
  canOperate: boolean;
  requireTotp: boolean;
}

/** `GET /portal/v1/session`, and what signing in or accepting an invitation answers. */
export interface PortalSession {
  member: PortalMember;
  organization: PortalOrganization;
  /** `reconciled` false while the platform has stopped moving money (orders, withdrawals, declarations, destinations). */
  platform: { reconciled: boolean; explorers?: Record<string, string> };
}

/** One-time invitation: the url carries the token in its fragment (`…/portal/invitation#<token>`). */
export interface Invitation {
  url: string;
  expiresAt: string;
}

export interface ApiKeyRecord {
  id: string;
  prefix: string;
  scopes: string[];
  issuedBy: { id: string; name: string } | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  allowedIps: string[] | null;
  revokedAt: string | null;
  /** What the key is for, as its issuer named it; null or absent: unnamed. */
  name?: string | null;
}

/** The answer of issuing: `key` is the whole secret, shown only here. */
export interface IssuedApiKey {
  id: string;
  prefix: string;
  scopes: string[];
  key: string;
  expiresAt: string | null;
  allowedIps: string[] | null;
  name?: string | null;
  createdAt: string;
}

export interface IssueApiKeyParams {
  scopes: string[];
  /** What the key is for ("ERP payments"), at most 80 characters. */
  name?: string;
  expiresAt?: string;
  allowedIps?: string[];
}

export interface TotpEnrolment {
  secret: string;
  otpauthUrl: string;
}

/** Why a destination is not usable yet: its cooldown's end and whether the operator has still to register it. */
export interface DestinationWait {
  id: string;
  cooldownEndsAt: string;
  awaitingOperator: boolean;
}
