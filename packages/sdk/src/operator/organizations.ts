import type {
  AdjustmentResult as WireAdjustment,
  ClientStatus,
  IssuedApiKey,
  MemberRecord,
  OrganizationRecord,
  Permission,
  RevokedApiKey as WireRevoked,
  Scope,
} from '@cambio/contract';
import type { Static } from '@sinclair/typebox';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import type { ListParams, Page } from '../paginate.ts';
import type { Balance } from '../resources/balances.ts';
import type { LedgerEntry } from '../resources/ledger.ts';
import { StatementsResource, type BalanceHistory, type Valuation } from '../resources/treasury.ts';
import { listPage } from '../resources/list.ts';
import { keyOf, type WriteOptions } from '../action-key.ts';

export type Organization = OrganizationRecord;
export type Member = MemberRecord;
export type ApiKey = IssuedApiKey;
export type RevokedApiKey = Static<typeof WireRevoked>;
export type Adjustment = Amounts<Static<typeof WireAdjustment>>;

/** A member as the operator lists them; `status` and `totpEnrolled` come with people's sign-in. */
export type OrganizationMember = MemberRecord & { status?: string; totpEnrolled?: boolean };
export interface OrganizationKey {
  id: string;
  prefix: string;
  scopes: string[];
  memberId?: string;
  issuedBy?: { id: string; name: string };
  createdAt: string;
  lastUsedAt?: string | null;
  expiresAt?: string | null;
  revokedAt?: string | null;
}

/** `{"BTC": {maxOrderMinor, maxWithdrawalMinor}}`; `{}` = loaded with no caps; null = not loaded (cannot operate). */
export type LimitsInput = Record<string, { maxOrderMinor?: bigint | null; maxWithdrawalMinor?: bigint | null }> | null;

/** Organizations, the people in them (their role) and the keys they hold (docs/operator-guide.md). */
export class OperatorOrganizations {
  constructor(private readonly t: Transport) {}

  async create(p: { name: string; status?: ClientStatus; limits?: LimitsInput }, opts: WriteOptions = {}): Promise<Organization> {
    return (
      await this.t.request<Organization>({ method: 'POST', path: '/organizations', body: p, ...keyOf(opts) }, { resendWhenUnknown: false })
    ).value.data;
  }

  async get(id: string): Promise<Organization> {
    return (await this.t.get<Organization>(`/organizations/${enc(id)}`)).data;
  }

  /** Organizations, newest first; `search` matches the name or the id. */
  list(q: ListParams & { search?: string; status?: ClientStatus } = {}): Promise<Page<Organization>> {
    return listPage<Organization>(this.t, '/organizations', q, { search: q.search || undefined, status: q.status });
  }

  /** One organization's people and their roles. */
  async members(id: string): Promise<OrganizationMember[]> {
    return (await this.t.get<OrganizationMember[]>(`/organizations/${enc(id)}/members`)).data;
  }

  /** One organization's API keys (never the secret). */
  async keys(id: string): Promise<OrganizationKey[]> {
    return (await this.t.get<OrganizationKey[]>(`/organizations/${enc(id)}/api-keys`)).data;
  }

  /** Available, held and total per asset, as the organization sees them. */
  async balances(id: string): Promise<Balance[]> {
    return (await this.t.get<Balance[]>(`/organizations/${enc(id)}/balances`)).data;
  }

  /** The organization's balances valued in its reporting currency, as its members read them. */
  async valuation(id: string): Promise<Valuation> {
    return (await this.t.get<Valuation>(`/organizations/${enc(id)}/valuation`)).data;
  }

  /** The organization's closing total of each asset per day (UTC), the last `days` days (30 by default). */
  async balanceHistory(id: string, days?: number): Promise<BalanceHistory> {
    return (await this.t.get<BalanceHistory>(`/organizations/${enc(id)}/balances/history`, days === undefined ? undefined : { days })).data;
  }

  /** The organization's monthly statements, as its members download them (`GET /operator/v1/organizations/{id}/statements/…`). */
  statements(id: string): StatementsResource {
    return new StatementsResource(this.t, `/organizations/${enc(id)}`);
  }

  ledger(id: string, q: ListParams = {}): Promise<Page<LedgerEntry>> {
    return listPage<LedgerEntry>(this.t, `/organizations/${enc(id)}/ledger`, q);
  }

  async update(id: string, p: { status?: ClientStatus; limits?: LimitsInput }): Promise<Organization> {
    return (
      await this.t.request<Organization>({ method: 'PATCH', path: `/organizations/${enc(id)}`, body: p }, { resendWhenUnknown: true })
    ).value.data;
  }

  /** A signed manual ledger adjustment (sandbox funding, corrections); never drives available below zero. */
  async adjust(id: string, p: { assetSymbol: string; amountMinor: bigint; reason: string }, opts: WriteOptions = {}): Promise<Adjustment> {
    return (
      await this.t.request<Adjustment>(
        { method: 'POST', path: `/organizations/${enc(id)}/adjustments`, body: p, ...keyOf(opts) },
        { resendWhenUnknown: false },
      )
    ).value.data;
  }
}

export class OperatorMembers {
  constructor(private readonly t: Transport) {}

  async add(
    organizationId: string,
    p: { name: string; email: string; permissions: Permission[] },
    opts: WriteOptions = {},
  ): Promise<Member> {
    return (
      await this.t.request<Member>(
        { method: 'POST', path: `/organizations/${enc(organizationId)}/members`, body: p, ...keyOf(opts) },
        { resendWhenUnknown: false },
      )
    ).value.data;
  }

  /** Changes the person's role; it takes effect on that person's keys at their next request. */
  async update(memberId: string, p: { permissions: Permission[] }): Promise<Member> {
    return (await this.t.request<Member>({ method: 'PATCH', path: `/members/${enc(memberId)}`, body: p }, { resendWhenUnknown: true }))
      .value.data;
  }
}

export class OperatorKeys {
  constructor(private readonly t: Transport) {}

  /** Issues a key on behalf of a member holding `portal:api_keys`. `key` is shown only in this answer. */
  async issue(
    memberId: string,
    p: { scopes: Scope[]; expiresAt?: string | null; allowedIps?: string[] | null },
    opts: WriteOptions = {},
  ): Promise<ApiKey> {
    return (
      await this.t.request<ApiKey>(
        { method: 'POST', path: `/members/${enc(memberId)}/api-keys`, body: p, ...keyOf(opts) },
        { resendWhenUnknown: false },
      )
    ).value.data;
  }

  async revoke(keyId: string, opts: WriteOptions = {}): Promise<RevokedApiKey> {
    return (
      await this.t.request<RevokedApiKey>(
        { method: 'POST', path: `/api-keys/${enc(keyId)}/revoke`, ...keyOf(opts) },
        { resendWhenUnknown: true },
      )
    ).value.data;
  }
}

export const enc = encodeURIComponent;
