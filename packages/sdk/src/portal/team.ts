import type { WriteOptions } from '../action-key.ts';
import type { Transport } from '../http.ts';
import type { Invitation, PortalMember } from './types.ts';

/** The organization's members (`portal:team` to change them; roles no wider than one's own). */
export class PortalTeamResource {
  constructor(private readonly t: Transport) {}

  /** `GET /portal/v1/team/members`. */
  async members(): Promise<PortalMember[]> {
    return (await this.t.get<PortalMember[]>('/team/members')).data;
  }

  /** `POST /portal/v1/team/members`: the invitation url is for the new member only; it is shown once. */
  async invite(
    p: { name: string; email: string; permissions: string[] },
    opts: WriteOptions = {},
  ): Promise<{ member: PortalMember; invitation: Invitation }> {
    return (
      await this.t.write<{ member: PortalMember; invitation: Invitation }>({ method: 'POST', path: '/team/members', body: p }, opts, true)
    ).data;
  }

  /** `POST /portal/v1/team/members/:id/invitation`: a new link for a member still invited (mailed when mail is on); the earlier link stops working. */
  async resendInvitation(id: string, opts: WriteOptions = {}): Promise<{ member: PortalMember; invitation: Invitation }> {
    return (
      await this.t.write<{ member: PortalMember; invitation: Invitation }>(
        { method: 'POST', path: `/team/members/${encodeURIComponent(id)}/invitation` },
        opts,
        true,
      )
    ).data;
  }

  /** `PATCH /portal/v1/team/members/:id`: takes effect on that person's keys at their next request. */
  async setPermissions(id: string, permissions: string[], opts: WriteOptions = {}): Promise<PortalMember> {
    return (
      await this.t.write<PortalMember>(
        { method: 'PATCH', path: `/team/members/${encodeURIComponent(id)}`, body: { permissions } },
        opts,
        true,
      )
    ).data;
  }

  /** `DELETE /portal/v1/team/members/:id`: the member's keys and sessions stop at once. */
  async remove(id: string, opts: WriteOptions = {}): Promise<PortalMember> {
    return (await this.t.write<PortalMember>({ method: 'DELETE', path: `/team/members/${encodeURIComponent(id)}` }, opts)).data;
  }
}
