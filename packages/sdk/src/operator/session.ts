import { keyOf, type WriteOptions } from '../action-key.ts';
import type { Transport } from '../http.ts';
import type { Invitation, TotpEnrolment } from '../portal/types.ts';

export type { Invitation, TotpEnrolment };

/** A person of the operator (docs/design/people-and-apps.md). */
export type StaffRole = 'viewer' | 'approver' | 'admin' | 'auditor';
export interface StaffPerson {
  id: string;
  name: string;
  email: string;
  role: StaffRole;
  status: 'invited' | 'active' | 'removed';
  totpEnrolled: boolean;
  createdAt: string;
}
export interface StaffSessionInfo {
  staff: StaffPerson;
}

/**
 * The staff person's own session at `/operator/v1/session`: sign in (password, then a TOTP or recovery
 * code when enrolled), who am I, sign out; accept an invitation; password and TOTP. In a browser the
 * answer sets the `cambio_staff` cookie, which then authenticates every other call of this client.
 * `opts.idempotencyKey`: the key of the person's action (the desk's ActionKey); these are sent once, never
 * re-sent after a lost answer, so without one they carry none.
 */
export class OperatorSession {
  constructor(private readonly t: Transport) {}

  /** 401 `auth.sign_in_failed` for any wrong part; 401 `auth.code_required` when a code is needed. */
  async signIn(p: { email: string; password: string; code?: string }, opts: WriteOptions = {}): Promise<StaffSessionInfo> {
    return (await this.t.send<StaffSessionInfo>({ method: 'POST', path: '/session', body: p, ...keyOf(opts) })).data;
  }

  /** Who is signed in; 401 without a session. */
  async get(): Promise<StaffSessionInfo> {
    return (await this.t.get<StaffSessionInfo>('/session')).data;
  }

  async signOut(): Promise<{ signedOut: boolean }> {
    return (await this.t.send<{ signedOut: boolean }>({ method: 'DELETE', path: '/session' })).data;
  }

  /** The token is the fragment of the invitation url; the person is signed in by the answer. */
  async acceptInvitation(p: { token: string; password: string }, opts: WriteOptions = {}): Promise<StaffSessionInfo> {
    return (await this.t.send<StaffSessionInfo>({ method: 'POST', path: '/invitations/accept', body: p, ...keyOf(opts) })).data;
  }

  /** A forgotten password: the same answer whether or not the email is a staff person's; a mail with a one-time link when it is. */
  async requestPasswordReset(p: { email: string }, opts: WriteOptions = {}): Promise<{ requested: boolean }> {
    return (await this.t.send<{ requested: boolean }>({ method: 'POST', path: '/password-reset', body: p, ...keyOf(opts) })).data;
  }

  /** The token of the reset mail's link (its fragment) and a new password; every session ends, then sign in. */
  async completePasswordReset(p: { token: string; password: string }, opts: WriteOptions = {}): Promise<{ changed: boolean }> {
    return (await this.t.send<{ changed: boolean }>({ method: 'POST', path: '/password-reset/complete', body: p, ...keyOf(opts) })).data;
  }

  async changePassword(p: { currentPassword: string; newPassword: string }, opts: WriteOptions = {}): Promise<{ changed: boolean }> {
    return (await this.t.send<{ changed: boolean }>({ method: 'POST', path: '/password', body: p, ...keyOf(opts) })).data;
  }

  /** The secret is shown once and is not active until `confirmTotp`. */
  async enrolTotp(opts: WriteOptions = {}): Promise<TotpEnrolment> {
    return (await this.t.send<TotpEnrolment>({ method: 'POST', path: '/totp/enrol', ...keyOf(opts) })).data;
  }

  /** Activates TOTP; the ten recovery codes are shown only in this answer. */
  async confirmTotp(code: string, opts: WriteOptions = {}): Promise<{ recoveryCodes: string[] }> {
    return (await this.t.send<{ recoveryCodes: string[] }>({ method: 'POST', path: '/totp/confirm', body: { code }, ...keyOf(opts) })).data;
  }
}
