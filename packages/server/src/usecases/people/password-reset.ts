import { DomainError } from '../../domain/errors.ts';
import { passwordResetMail, mailLang } from '../../domain/mail/messages.ts';
import { assertPasswordStrong, emailSalt, hashPassword } from '../../domain/people/password.ts';
import { accountKey, THROTTLE } from '../../domain/people/throttle.ts';
import { hashOpaque, newOpaque } from '../../domain/people/tokens.ts';
import { queueMail, type MailDeps } from '../mail/outbox.ts';
import { actorOf, type PeopleDeps } from './people-deps.ts';
import { clearFailures, reserveAttempt } from './throttle.ts';
import type { PersonKind } from '../repositories.ts';

/** A reset link works once, for this long. */
export const RESET_TTL_MS = 30 * 60_000;
/** Requests per address (answered 429 past it) and mails per email (silently none past it) in the throttle's window. */
export const RESET_LIMITS = { perAddress: 10, perEmail: 3 } as const;

/** What a password reset works with: the people use cases' needs, the mail outbox's, and where the links point. */
export type PasswordResetDeps = PeopleDeps & MailDeps & { config: { publicUrl: string } };

const inFlight = new Set<Promise<void>>();
/** Resolves once every reset request already answered has finished its work (tests wait on it). */
export async function resetRequestsSettled(): Promise<void> {
  await Promise.allSettled([...inFlight]);
}

/**
 * A forgotten password (docs/design/people-and-apps.md): the answer is the same whether or not the email is a person's, and
 * it is given before the email is even looked up, so its timing says nothing either. The work after it:
 * at most RESET_LIMITS.perEmail mails per window, only to an active person, with a one-time token of which
 * only the hash is kept; the link carries it in the fragment, which no browser sends to a server or a log.
 */
export async function requestPasswordReset(
  d: PasswordResetDeps,
  kind: PersonKind,
  rawEmail: string,
  ip: string,
  lang: string,
): Promise<void> {
  if (!d.mail) throw new DomainError('auth.reset_unavailable');
  const lockMs = THROTTLE.windowMs;
  const locked = await reserveAttempt(d, [{ key: `${kind}:reset-address:${ip}`, limit: RESET_LIMITS.perAddress, lockMs }]);
  if (locked) throw new DomainError('rate_limit.exceeded');
  const email = rawEmail.trim().toLowerCase();
  const work = (async () => {
    const people = await d.store.people.activeByEmail(kind, email);
    if (people.length === 0) return;
    if (await reserveAttempt(d, [{ key: `${kind}:reset-account:${email}`, limit: RESET_LIMITS.perEmail, lockMs }])) return;
    // One link per account of the email (a person may be a member of several organizations): a link resets
    // its own account only, and with several, its mail names the organization, so the person chooses which.
    const places =
      kind === 'member' && people.length > 1
        ? await d.store.people.organizationsOfMembers(people.map((p) => p.id))
        : new Map<string, string>();
    for (const p of people) {
      const token = newOpaque();
      await d.store.mail.createReset(
        kind,
        email,
        p.id,
        hashOpaque(d.secret, 'password_reset', token),
        new Date(d.clock.now().getTime() + RESET_TTL_MS),
      );
      const url = `${d.config.publicUrl}/${kind === 'member' ? 'portal' : 'desk'}/reset-password#${token}`;
      await queueMail(
        d,
        'password_reset',
        email,
        passwordResetMail({ url, minutes: RESET_TTL_MS / 60_000, place: places.get(p.id) ?? null }, mailLang(lang)),
      );
    }
  })().catch((err: unknown) =>
    d.logger?.error({ kind, err: { message: (err as Error).message } }, 'a password-reset request could not be completed'),
  );
  inFlight.add(work);
  void work.finally(() => inFlight.delete(work));
}

/**
 * Sets a new password with a reset token, for the account it was sent for only: once, before it expires.
 * Every session of that account ends (so does every other reset link of it); a second factor stays enrolled and is asked for at the
 * next sign-in. The person is not signed in here: they sign in with the new password, and the code.
 */
export async function completePasswordReset(d: PasswordResetDeps, kind: PersonKind, token: string, password: string): Promise<void> {
  const tokenHash = hashOpaque(d.secret, 'password_reset', token);
  const r = await d.store.mail.reset(kind, tokenHash);
  if (!r || r.usedAt) throw new DomainError('auth.reset_invalid');
  if (r.expiresAt.getTime() <= d.clock.now().getTime()) throw new DomainError('auth.reset_expired');
  assertPasswordStrong(password, { email: r.email });
  // The link resets the one account it was sent for, never the other accounts of the same email (another
  // organization's membership may be someone else's doing: docs/security.md). A link without an account
  // (made before links were per account) no longer works.
  const people = (await d.store.people.activeByEmail(kind, r.email)).filter((p) => p.id === r.personId);
  if (people.length === 0) throw new DomainError('auth.reset_invalid');
  const hash = await hashPassword(password, emailSalt(d.secret, kind, r.email));
  // The token is spent, the account gets the new password and all its sessions end, together or not at all.
  const done = await d.store.uow.run(async (tx) => {
    const at = d.clock.now();
    if (!(await d.store.mail.spendReset(tx, kind, tokenHash, r.personId!, at))) return false;
    for (const p of people) {
      await d.store.people.putCredentials(tx, kind, p.id, { passwordHash: hash }, at);
      await d.store.people.endSessionsOf(tx, kind, p.id, at);
      await d.store.audit.record(tx, d.ids, at, {
        actor: actorOf(kind, p.id),
        action: 'password.reset',
        subjectType: kind,
        subjectId: p.id,
        before: null,
        after: { sessionsEnded: true },
      });
    }
    return true;
  });
  if (!done) throw new DomainError('auth.reset_invalid');
  // A person locked out by failed sign-ins who proved the mailbox may try the new password at once.
  await clearFailures(d, accountKey(kind, r.email));
}
