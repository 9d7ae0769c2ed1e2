import type {
  AdjustmentResult as WireAdjustment, ClientStatus, IssuedApiKey, MemberRecord, OrganizationRecord, Permission, RevokedApiKey as WireRevoked, Scope,
} from '@cambio/contract';
import type { Static } from '@sinclair/typebox';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';

export type Organization = OrganizationRecord;
export type Member = MemberRecord;
export type ApiKey = IssuedApiKey;
export type RevokedApiKey = Static<typeof WireRevoked>;
export type Adjustment = Amounts<Static<typeof WireAdjustment>>;

/** `{"BTC": {maxOrderMinor, maxWithdrawalMinor}}`; `{}` = loaded with no caps; null = not loaded (cannot operate). */
export type LimitsInput = Record<string, { maxOrderMinor?: bigint | null; maxWithdrawalMinor?: bigint | null }> | null;

/** Organizations, the people in them (their role) and the keys they hold (CONTRACT §3). */
export class OperatorOrganizations {
  constructor(private readonly t: Transport) {}

  async create(p: { name: string; status?: ClientStatus; limits?: LimitsInput }): Promise<Organization> {
    return (await this.t.request<Organization>({ method: 'POST', path: '/organizations', body: p }, { resendWhenUnknown: false })).value.data;
  }

  async get(id: string): Promise<Organization> {
    return (await this.t.get<Organization>(`/organizations/${enc(id)}`)).data;
  }

  async update(id: string, p: { status?: ClientStatus; limits?: LimitsInput }): Promise<Organization> {
    return (await this.t.request<Organization>({ method: 'PATCH', path: `/organizations/${enc(id)}`, body: p }, { resendWhenUnknown: true })).value.data;
  }

  /** A signed manual ledger adjustment (sandbox funding, corrections); never drives available below zero. */
  async adjust(id: string, p: { assetSymbol: string; amountMinor: bigint; reason: string }): Promise<Adjustment> {
    return (await this.t.request<Adjustment>({ method: 'POST', path: `/organizations/${enc(id)}/adjustments`, body: p }, { resendWhenUnknown: false })).value.data;
  }
}

export class OperatorMembers {
  constructor(private readonly t: Transport) {}

  async add(organizationId: string, p: { name: string; email: string; permissions: Permission[] }): Promise<Member> {
    return (await this.t.request<Member>({ method: 'POST', path: `/organizations/${enc(organizationId)}/members`, body: p }, { resendWhenUnknown: false })).value.data;
  }

  /** Changes the person's role; it takes effect on that person's keys at their next request. */
  async update(memberId: string, p: { permissions: Permission[] }): Promise<Member> {
    return (await this.t.request<Member>({ method: 'PATCH', path: `/members/${enc(memberId)}`, body: p }, { resendWhenUnknown: true })).value.data;
  }
}

export class OperatorKeys {
  constructor(private readonly t: Transport) {}

  /** Issues a key on behalf of a member holding `portal:api_keys`. `key` is shown only in this answer. */
  async issue(memberId: string, p: { scopes: Scope[]; expiresAt?: string | null; allowedIps?: string[] | null }): Promise<ApiKey> {
    return (await this.t.request<ApiKey>({ method: 'POST', path: `/members/${enc(memberId)}/api-keys`, body: p }, { resendWhenUnknown: false })).value.data;
  }

  async revoke(keyId: string): Promise<RevokedApiKey> {
    return (await this.t.request<RevokedApiKey>({ method: 'POST', path: `/api-keys/${enc(keyId)}/revoke` }, { resendWhenUnknown: true })).value.data;
  }
}

export const enc = encodeURIComponent;
