import type { Transport } from '../http.ts';
import { enc } from './organizations.ts';
import type { Invitation, StaffPerson, StaffRole } from './session.ts';
import { keyOf, type WriteOptions } from '../action-key.ts';

/** The operator's staff (admin only for changes): invite, change a role, remove. */
export class OperatorStaff {
  constructor(private readonly t: Transport) {}

  async list(): Promise<StaffPerson[]> {
    return (await this.t.get<StaffPerson[]>('/staff')).data;
  }

  /** The invitation url (`…/desk/invitation#<token>`) is shown only in this answer. */
  async invite(
    p: { name: string; email: string; role: StaffRole },
    opts: WriteOptions = {},
  ): Promise<{ staff: StaffPerson; invitation: Invitation }> {
    return (
      await this.t.request<{ staff: StaffPerson; invitation: Invitation }>(
        { method: 'POST', path: '/staff', body: p, ...keyOf(opts) },
        { resendWhenUnknown: false },
      )
    ).value.data;
  }

  async setRole(id: string, role: StaffRole): Promise<StaffPerson> {
    return (await this.t.request<StaffPerson>({ method: 'PATCH', path: `/staff/${enc(id)}`, body: { role } }, { resendWhenUnknown: true }))
      .value.data;
  }

  /** Ends the person's sessions and tokens at once. */
  async remove(id: string): Promise<StaffPerson> {
    return (await this.t.request<StaffPerson>({ method: 'DELETE', path: `/staff/${enc(id)}` }, { resendWhenUnknown: true })).value.data;
  }
}

export interface StaffToken {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt?: string | null;
  revokedAt?: string | null;
}

/** The signed-in person's own tokens (`Authorization: Bearer ops_…`) for scripts. */
export class OperatorTokens {
  constructor(private readonly t: Transport) {}

  async list(): Promise<StaffToken[]> {
    return (await this.t.get<StaffToken[]>('/tokens')).data;
  }

  /** `token` is shown only in this answer. */
  async issue(p: { name: string }, opts: WriteOptions = {}): Promise<StaffToken & { token: string }> {
    return (
      await this.t.request<StaffToken & { token: string }>(
        { method: 'POST', path: '/tokens', body: p, ...keyOf(opts) },
        { resendWhenUnknown: false },
      )
    ).value.data;
  }

  async revoke(id: string, opts: WriteOptions = {}): Promise<StaffToken> {
    return (
      await this.t.request<StaffToken>({ method: 'POST', path: `/tokens/${enc(id)}/revoke`, ...keyOf(opts) }, { resendWhenUnknown: true })
    ).value.data;
  }
}
