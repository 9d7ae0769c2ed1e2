import type { WriteOptions } from '../action-key.ts';
import { newIdempotencyKey, type Transport } from '../http.ts';
import type { PortalSession, TotpEnrolment } from './types.ts';

/**
 * A member's own session and credentials at `/portal/v1`. Signing in sets the `cambio_member` cookie
 * (HttpOnly: the browser keeps it; this code never sees it). Calls that change credentials are not
 * re-sent after a lost response: the person sees the failure and tries again (with the same
 * Idempotency-Key when the caller passes the one of that action).
 */
export class PortalSessionResource {
  constructor(private readonly t: Transport) {}

  private async post<T>(path: string, body: unknown, opts: WriteOptions): Promise<T> {
    return (await this.t.send<T>({ method: 'POST', path, body, idempotencyKey: opts.idempotencyKey ?? newIdempotencyKey() })).data;
  }

  /** `POST /portal/v1/session`. `401 auth.code_required`: ask for the TOTP (or a recovery code). */
  async signIn(p: { email: string; password: string; code?: string }, opts: WriteOptions = {}): Promise<PortalSession> {
    return this.post<PortalSession>('/session', p, opts);
  }

  /** `GET /portal/v1/session`: who is signed in; `401` when nobody is. */
  async current(): Promise<PortalSession> {
    return (await this.t.get<PortalSession>('/session')).data;
  }

  /** The session's `platform`: `reconciled` false while the platform has stopped moving money. */
  async platform(): Promise<{ reconciled: boolean; explorers?: Record<string, string> }> {
    return (await this.current()).platform;
  }

  /** `DELETE /portal/v1/session`: the cookie is cleared and the session ends at the server. */
  async signOut(): Promise<void> {
    await this.t.send({ method: 'DELETE', path: '/session' });
  }

  /** `POST /portal/v1/invitations/accept`: choose a password; answers signed in. */
  async acceptInvitation(p: { token: string; password: string }, opts: WriteOptions = {}): Promise<PortalSession> {
    return this.post<PortalSession>('/invitations/accept', p, opts);
  }

  /**
   * `POST /portal/v1/password-reset`: a forgotten password. The answer is the same whether or not the
   * email is a member's; when it is, a mail with a one-time link goes to it. `409 auth.reset_unavailable`
   * when the service sends no mail.
   */
  async requestPasswordReset(p: { email: string }, opts: WriteOptions = {}): Promise<{ requested: boolean }> {
    return this.post<{ requested: boolean }>('/password-reset', p, opts);
  }

  /** `POST /portal/v1/password-reset/complete`: the token of the mail's link and a new password; then sign in. `410 auth.reset_invalid` / `auth.reset_expired`. */
  async completePasswordReset(p: { token: string; password: string }, opts: WriteOptions = {}): Promise<{ changed: boolean }> {
    return this.post<{ changed: boolean }>('/password-reset/complete', p, opts);
  }

  /** `POST /portal/v1/password`: the member's other sessions end. */
  async changePassword(p: { currentPassword: string; newPassword: string }, opts: WriteOptions = {}): Promise<void> {
    await this.post('/password', p, opts);
  }

  /** `POST /portal/v1/totp/enrol`: a secret to put in an authenticator; not active until confirmed. */
  async enrolTotp(opts: WriteOptions = {}): Promise<TotpEnrolment> {
    return this.post<TotpEnrolment>('/totp/enrol', {}, opts);
  }

  /** `POST /portal/v1/totp/confirm`: activates TOTP; the recovery codes are shown only here. */
  async confirmTotp(p: { code: string }, opts: WriteOptions = {}): Promise<{ recoveryCodes: string[] }> {
    return this.post<{ recoveryCodes: string[] }>('/totp/confirm', p, opts);
  }
}
