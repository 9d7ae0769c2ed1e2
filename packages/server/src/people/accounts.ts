import type { Config } from '../config.ts';
import { DomainError } from '../domain/errors.ts';
import { assertPasswordStrong, emailSalt, hashPassword, needsRehash, verifyAgainst, verifyPassword } from '../domain/people/password.ts';
import { TotpSealer } from '../domain/people/seal.ts';
import { accountKey, addressKey, THROTTLE } from '../domain/people/throttle.ts';
import { hashOpaque, newOpaque } from '../domain/people/tokens.ts';
import { hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCodes, newTotpSecret, otpauthUrl, totpStep } from '../domain/people/totp.ts';
import type { Clock } from '../domain/ports.ts';
import type { Store } from '../store/index.ts';
import type { PersonCredentials, PersonKind } from '../store/people-store.ts';

export interface PeopleDeps { store: Store; secret: string; config: Config; clock: Clock }

export const actorOf = (kind: PersonKind, id: string) => `${kind}:${id}`;

/** A new session: the cookie's value (shown once, to the browser) and when it ends at the latest. */
export interface NewSession { sessionId: string; expiresAt: Date }

async function openSession(d: PeopleDeps, kind: PersonKind, id: string, previous: string | null): Promise<NewSession> {
  const sessionId = newOpaque();
  const prev = previous ? hashOpaque(d.secret, 'session', previous) : null;
  const expiresAt = await d.store.people.createSession(kind, id, hashOpaque(d.secret, 'session', sessionId), d.config.sessionMaxMs, prev);
  return { sessionId, expiresAt };
}

/**
 * Sign-in (CONTRACT §7): one answer for an unknown email and a wrong password, at the same cost (a dummy
 * hash is verified when there is no person); failures throttled per account and per address; a person
 * with TOTP must add a code (or a recovery code), each accepted once. Rotation: a new session id every
 * time, and the one the browser sent before ends.
 */
export async function signIn(d: PeopleDeps, kind: PersonKind, body: { email: string; password: string; code?: string | undefined }, ip: string, previous: string | null): Promise<{ person: PersonCredentials } & NewSession> {
  const email = body.email.trim().toLowerCase();
  const account = { key: accountKey(kind, email), limit: THROTTLE.account.failures, lockMs: THROTTLE.account.lockMs };
  const address = { key: addressKey(kind, ip), limit: THROTTLE.address.failures, lockMs: THROTTLE.address.lockMs };
  // The attempt is counted before the password is verified, so parallel attempts cannot all pass a lock
  // read before any failure is written: a wrong answer keeps its count, a right one gives it back.
  const locked = await d.store.people.reserveAttempt([account, address]);
  if (locked) throw lockedError(locked, d.clock.now());
  const candidates = await d.store.people.activeByEmail(kind, email);
  // One derivation whatever the number of accounts with this email: they share its salt (emailSalt).
  const matched = await verifyAgainst(body.password, candidates.map((c) => c.passwordHash));
  const person: PersonCredentials | null = matched < 0 ? null : candidates[matched]!;
  const failed = async (reason: string) => {
    await d.store.people.audit({ actor: 'anonymous', action: 'sign_in.failed', subjectType: kind, subjectId: person?.id ?? candidates[0]?.id ?? 'unknown', before: null, after: { email, address: ip, reason } });
    return new DomainError('auth.sign_in_failed');
  };
  if (!person) throw await failed('password');
  if (person.totpSealed) {
    const code = body.code?.trim();
    if (!code) {
      // The password was right: asking for the code is not a failure.
      await d.store.people.releaseAttempt([account, address]);
      throw new DomainError('auth.code_required');
    }
    if (!(await acceptSecondFactor(d, person, code))) throw await failed('code');
  }
  await d.store.people.clearFailures(account.key);
  await d.store.people.releaseAttempt([address]);
  const salt = emailSalt(d.secret, kind, person.email);
  if (needsRehash(person.passwordHash, salt)) await d.store.people.rehashPassword(kind, person.id, await hashPassword(body.password, salt));
  const s = await openSession(d, kind, person.id, previous);
  await d.store.people.audit({ actor: actorOf(kind, person.id), action: 'sign_in', subjectType: kind, subjectId: person.id, before: null, after: { address: ip, secondFactor: person.totpSealed !== null } });
  return { person, ...s };
}

function lockedError(until: Date, now: Date): DomainError {
  const ms = BigInt(until.getTime() - now.getTime());
  const seconds = ms <= 1000n ? 1n : (ms + 999n) / 1000n;
  return new DomainError('auth.sign_in_locked', { until: until.toISOString(), seconds: String(seconds) });
}

const sealer = (d: PeopleDeps) => new TotpSealer(d.secret);

/** A TOTP code of a step later than the last one used (so never twice), or an unused recovery code. */
async function acceptSecondFactor(d: PeopleDeps, p: PersonCredentials, code: string): Promise<boolean> {
  if (/^[0-9]{6}$/.test(code)) {
    const secret = sealer(d).open(p.totpSealed!, { kind: p.kind, id: p.id, field: 'secret' });
    const step = totpStep(secret, code, d.clock.now());
    if (step === null || (p.totpLastStep !== null && step <= p.totpLastStep)) return false;
    return d.store.people.useTotpStep(p.kind, p.id, step);
  }
  if (looksLikeRecoveryCode(code)) {
    const used = await d.store.people.useRecoveryCode(p.kind, p.id, hashRecoveryCode(d.secret, code));
    if (used) await d.store.people.audit({ actor: actorOf(p.kind, p.id), action: 'recovery_code.use', subjectType: p.kind, subjectId: p.id, before: null, after: { remaining: p.recoveryHashes.length - 1 } });
    return used;
  }
  return false;
}

/** Accepts an invitation: the person chooses a password, becomes active and is signed in. */
export async function acceptInvitation(d: PeopleDeps, kind: PersonKind, token: string, password: string, previous: string | null): Promise<{ id: string } & NewSession> {
  assertPasswordStrong(password);
  const tokenHash = hashOpaque(d.secret, 'invitation', token);
  const email = await d.store.people.invitedEmail(kind, tokenHash);
  if (email === null) throw new DomainError('auth.invitation_invalid');
  assertPasswordStrong(password, { email });
  const hash = await hashPassword(password, emailSalt(d.secret, kind, email));
  const id = await d.store.people.acceptInvitation(kind, tokenHash, hash,
    (pid) => ({ actor: actorOf(kind, pid), action: 'invitation.accept', subjectType: kind, subjectId: pid, before: { status: 'invited' }, after: { status: 'active' } }));
  if (!id) throw new DomainError('auth.invitation_invalid');
  return { id, ...(await openSession(d, kind, id, previous)) };
}

/** A new password, the current one proven; every other session of the person ends. */
export async function changePassword(d: PeopleDeps, kind: PersonKind, id: string, current: string, next: string, sessionId: string): Promise<void> {
  const p = await d.store.people.credentialsOf(kind, id);
  if (!p || !(await verifyPassword(current, p.passwordHash))) throw new DomainError('auth.current_password_wrong');
  assertPasswordStrong(next, { email: p.email, current });
  await d.store.people.setPassword(kind, id, await hashPassword(next, emailSalt(d.secret, kind, p.email)), hashOpaque(d.secret, 'session', sessionId),
    { actor: actorOf(kind, id), action: 'password.change', subjectType: kind, subjectId: id, before: null, after: { otherSessionsEnded: true } });
}

/** Starts enrolment: a new secret, sealed as pending, shown once; not active until confirmed with a code. */
export async function enrolTotp(d: PeopleDeps, kind: PersonKind, id: string, label: string): Promise<{ secret: string; otpauthUrl: string }> {
  const p = await d.store.people.credentialsOf(kind, id);
  if (p?.totpSealed) throw new DomainError('auth.totp_already_enrolled');
  const secret = newTotpSecret();
  await d.store.people.setTotpPending(kind, id, sealer(d).seal(secret, { kind, id, field: 'pending' }));
  return { secret, otpauthUrl: otpauthUrl(secret, 'Cambio', label) };
}

/** Confirms enrolment with a code of the pending secret; answers ten recovery codes, shown once, stored hashed. */
export async function confirmTotp(d: PeopleDeps, kind: PersonKind, id: string, code: string): Promise<string[]> {
  const p = await d.store.people.credentialsOf(kind, id);
  if (p?.totpSealed) throw new DomainError('auth.totp_already_enrolled');
  if (!p?.totpPendingSealed) throw new DomainError('auth.totp_not_started');
  const secret = sealer(d).open(p.totpPendingSealed, { kind, id, field: 'pending' });
  const step = totpStep(secret, code.trim(), d.clock.now());
  if (step === null) throw new DomainError('auth.totp_code_invalid');
  const codes = newRecoveryCodes();
  await d.store.people.confirmTotp(kind, id, sealer(d).seal(secret, { kind, id, field: 'secret' }), step, codes.map((c) => hashRecoveryCode(d.secret, c)),
    { actor: actorOf(kind, id), action: 'totp.enrol', subjectType: kind, subjectId: id, before: { totpEnrolled: false }, after: { totpEnrolled: true } });
  return codes;
}
