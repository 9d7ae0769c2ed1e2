import type { Transport } from '../http.ts';
import type { PortalSession, TotpEnrolment } from './types.ts';

/**
 * A member's own session and credentials at `/portal/v1`. Signing in sets the `cambio_member` cookie
 * (HttpOnly: the browser keeps it; this code never sees it). Calls that change credentials are not
 * re-sent after a lost response: the person sees the failure and tries again.
 */
export class PortalSessionResource {
  constructor(private readonly t: Transport) {}

  /** `POST /portal/v1/session`. `401 auth.code_required`: ask for the TOTP (or a recovery code). */
  async signIn(p: { email: string; password: string; code?: string }): Promise<PortalSession> {
    return (await this.t.send<PortalSession>({ method: 'POST', path: '/session', body: p })).data;
  }

  /** `GET /portal/v1/session`: who is signed in; `401` when nobody is. */
  async current(): Promise<PortalSession> {
    return (await this.t.get<PortalSession>('/session')).data;
  }

  /** `DELETE /portal/v1/session`: the cookie is cleared and the session ends at the server. */
  async signOut(): Promise<void> {
    await this.t.send({ method: 'DELETE', path: '/session' });
  }

  /** `POST /portal/v1/invitations/accept`: choose a password; answers signed in. */
  async acceptInvitation(p: { token: string; password: string }): Promise<PortalSession> {
    return (await this.t.send<PortalSession>({ method: 'POST', path: '/invitations/accept', body: p })).data;
  }

  /** `POST /portal/v1/password`: the member's other sessions end. */
  async changePassword(p: { currentPassword: string; newPassword: string }): Promise<void> {
    await this.t.send({ method: 'POST', path: '/password', body: p });
  }

  /** `POST /portal/v1/totp/enrol`: a secret to put in an authenticator; not active until confirmed. */
  async enrolTotp(): Promise<TotpEnrolment> {
    return (await this.t.send<TotpEnrolment>({ method: 'POST', path: '/totp/enrol', body: {} })).data;
  }

  /** `POST /portal/v1/totp/confirm`: activates TOTP; the recovery codes are shown only here. */
  async confirmTotp(p: { code: string }): Promise<{ recoveryCodes: string[] }> {
    return (await this.t.send<{ recoveryCodes: string[] }>({ method: 'POST', path: '/totp/confirm', body: p })).data;
  }
}
