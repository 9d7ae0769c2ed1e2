import {
  AcceptInvitation,
  Changed,
  ChangePassword,
  CompletePasswordReset,
  PasswordResetRequested,
  RecoveryCodes,
  RequestPasswordReset,
  SignedOut,
  SignIn,
  TotpConfirm,
  TotpEnrolment,
} from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.ts';
import { hashOpaque } from '../domain/people/tokens.ts';
import { ok } from './envelope.ts';
import { responses } from './schemas.ts';
import type { PersonKind } from '../store/people-store.ts';
import type { NewSession } from '../people/accounts.ts';
import { clearedCookie, cookieOf, readCookie, sessionCookie } from '../people/cookies.ts';
import { assertForeignOriginAbsent } from '../people/origin.ts';
import type { ResetDeps } from '../people/password-reset.ts';
import { acceptInvitation } from '../usecases/people/accept-invitation.ts';
import { changePassword } from '../usecases/people/change-password.ts';
import { completePasswordReset, requestPasswordReset, RESET_TTL_MS } from '../usecases/people/password-reset.ts';
import { rememberLanguage } from '../usecases/people/remember-language.ts';
import { endSession } from '../usecases/people/sessions.ts';
import type { Repositories } from '../usecases/repositories.ts';
import { signIn } from '../usecases/people/sign-in.ts';
import { confirmTotp, enrolTotp } from '../usecases/people/totp-enrolment.ts';

export interface SessionRouteOptions {
  kind: PersonKind;
  tags: string[];
  security: Array<Record<string, string[]>>;
  /** The `data` of the session answers (who is signed in), for a person id. */
  view: (id: string) => Promise<unknown>;
  viewSchema: TSchema;
  /** The signed-in person of an authenticated request, and the session id when a cookie authenticated it. */
  current: (req: FastifyRequest) => { id: string; email: string; sessionId: string | null };
}

/**
 * Sign-in, sign-out, who am I, invitations, password and TOTP: the same for members (/portal/v1) and
 * staff (/operator/v1); only the cookie's name and the person's view differ. Sign-in and accepting an
 * invitation are public (no session yet); everything else runs behind the plugin's authentication.
 */
export function sessionRoutes(d: ResetDeps & { store: Pick<Repositories, 'mail'> }, o: SessionRouteOptions): FastifyPluginAsyncTypebox {
  const cookie = cookieOf(o.kind);
  const secure = d.config.mode === 'production';
  const setCookie = (reply: FastifyReply, s: NewSession) =>
    reply.header('set-cookie', sessionCookie(cookie, s.sessionId, { secure, maxAgeS: Number(BigInt(d.config.sessionMaxMs) / 1000n) }));
  const previous = (req: FastifyRequest) => readCookie(req.headers.cookie, cookie) ?? null;
  const { tags, security } = o;
  // The mails a person receives later (decisions on their requests) speak the language they sign in with.
  const rememberLang = (kind: PersonKind, id: string, lang: string) =>
    rememberLanguage(d, kind, id, lang).catch((err: unknown) =>
      d.logger?.warn({ err: { message: (err as Error).message } }, "could not remember a person's language"),
    );

  return async (app) => {
    app.post(
      '/session',
      {
        config: { public: true },
        schema: {
          tags,
          security: [],
          body: SignIn,
          response: responses(200, o.viewSchema),
          summary:
            'Sign in: sets the session cookie (a new id every time). 401 auth.sign_in_failed for a wrong email, password or code alike; 401 auth.code_required when TOTP is enrolled and no code was sent; 429 auth.sign_in_locked with Retry-After',
        },
      },
      async (req, reply) => {
        assertForeignOriginAbsent(req, d.config);
        try {
          const s = await signIn(d, o.kind, req.body, req.ip, previous(req));
          setCookie(reply, s);
          await rememberLang(o.kind, s.person.id, req.lang);
          return ok(req.id, await o.view(s.person.id));
        } catch (e) {
          if (e instanceof DomainError && e.code === 'auth.sign_in_locked') reply.header('retry-after', e.params.seconds ?? '60');
          throw e;
        }
      },
    );

    app.get('/session', { schema: { tags, security, response: responses(200, o.viewSchema), summary: 'Who is signed in' } }, async (req) =>
      ok(req.id, await o.view(o.current(req).id)),
    );

    app.delete(
      '/session',
      {
        schema: {
          tags,
          security,
          response: responses(200, SignedOut),
          summary: 'Sign out: the session ends at once and the cookie is cleared',
        },
      },
      async (req, reply) => {
        const { sessionId } = o.current(req);
        if (sessionId) await endSession(d, hashOpaque(d.secret, 'session', sessionId));
        reply.header('set-cookie', clearedCookie(cookie, secure));
        return ok(req.id, { signedOut: true });
      },
    );

    app.post(
      '/invitations/accept',
      {
        config: { public: true },
        schema: {
          tags,
          security: [],
          body: AcceptInvitation,
          response: responses(200, o.viewSchema),
          summary:
            "Choose a password with the invitation's token: the person is active and signed in. 410 auth.invitation_invalid when unknown, used or expired; 422 auth.password_weak",
        },
      },
      async (req, reply) => {
        assertForeignOriginAbsent(req, d.config);
        const s = await acceptInvitation(d, o.kind, req.body.token, req.body.password, previous(req));
        setCookie(reply, s);
        await rememberLang(o.kind, s.id, req.lang);
        return ok(req.id, await o.view(s.id));
      },
    );

    app.post(
      '/password-reset',
      {
        config: { public: true },
        schema: {
          tags,
          security: [],
          body: RequestPasswordReset,
          response: responses(200, PasswordResetRequested),
          summary: `A forgotten password: if the email is an active person's, a mail with a one-time link (${RESET_TTL_MS / 60_000} minutes) goes to it. The answer is the same whether or not it is; 429 rate_limit.exceeded past a few requests from one address; 409 auth.reset_unavailable when the service sends no mail`,
        },
      },
      async (req) => {
        assertForeignOriginAbsent(req, d.config);
        await requestPasswordReset(d, o.kind, req.body.email, req.ip, req.lang);
        return ok(req.id, { requested: true });
      },
    );

    app.post(
      '/password-reset/complete',
      {
        config: { public: true },
        schema: {
          tags,
          security: [],
          body: CompletePasswordReset,
          response: responses(200, Changed),
          summary:
            'A new password with the token of the reset mail: every session of the person ends; sign in with it (and the TOTP code when enrolled). 410 auth.reset_invalid when unknown or used, 410 auth.reset_expired; 422 auth.password_weak',
        },
      },
      async (req) => {
        assertForeignOriginAbsent(req, d.config);
        await completePasswordReset(d, o.kind, req.body.token, req.body.password);
        return ok(req.id, { changed: true });
      },
    );

    app.post(
      '/password',
      {
        schema: {
          tags,
          security,
          body: ChangePassword,
          response: responses(200, Changed),
          summary: "A new password; the person's other sessions end",
        },
      },
      async (req) => {
        const me = o.current(req);
        await changePassword(d, o.kind, me.id, req.body.currentPassword, req.body.newPassword, me.sessionId ?? '');
        return ok(req.id, { changed: true });
      },
    );

    app.post(
      '/totp/enrol',
      {
        schema: {
          tags,
          security,
          response: responses(200, TotpEnrolment),
          summary: 'A new TOTP secret, shown once; not active until confirmed',
        },
      },
      async (req) => {
        const me = o.current(req);
        return ok(req.id, await enrolTotp(d, o.kind, me.id, me.email));
      },
    );

    app.post(
      '/totp/confirm',
      {
        schema: {
          tags,
          security,
          body: TotpConfirm,
          response: responses(200, RecoveryCodes),
          summary: 'Confirms TOTP with a code; answers ten recovery codes, shown once',
        },
      },
      async (req) => {
        const me = o.current(req);
        return ok(req.id, { recoveryCodes: await confirmTotp(d, o.kind, me.id, req.body.code) });
      },
    );
  };
}

/** Routes a person may use before enrolling TOTP where it is required (relative to the API's prefix). */
export const SELF_SERVICE = new Set(['GET /session', 'DELETE /session', 'POST /password', 'POST /totp/enrol', 'POST /totp/confirm']);
