import { DomainError } from '../../domain/errors.ts';
import { emailSalt, hashPassword, needsRehash, verifyAgainst } from '../../domain/people/password.ts';
import { TotpSealer } from '../../domain/people/seal.ts';
import { accountKey, addressKey, THROTTLE } from '../../domain/people/throttle.ts';
import { hashRecoveryCode, looksLikeRecoveryCode, totpStep } from '../../domain/people/totp.ts';
import { actorOf, type NewSession, type PeopleDeps, type SessionDeps } from './people-deps.ts';
import { openSession } from './open-session.ts';
import { clearFailures, releaseAttempt, reserveAttempt } from './throttle.ts';
import type { AuditRecord, PersonCredentials, PersonKind } from '../repositories.ts';

/**
 * Sign-in (docs/design/people-and-apps.md): one answer for an unknown email and a wrong password, at the same cost (a dummy
 * hash is verified when there is no person); failures throttled per account and per address; a person
 * with TOTP must add a code (or a recovery code), each accepted once. Rotation: a new session id every
 * time, and the one the browser sent before ends.
 */
export async function signIn(
  d: SessionDeps,
  kind: PersonKind,
  body: { email: string; password: string; code?: string | undefined },
  ip: string,
  previous: string | null,
): Promise<{ person: PersonCredentials } & NewSession> {
  const email = body.email.trim().toLowerCase();
  const account = { key: accountKey(kind, email), limit: THROTTLE.account.failures, lockMs: THROTTLE.account.lockMs };
  const address = { key: addressKey(kind, ip), limit: THROTTLE.address.failures, lockMs: THROTTLE.address.lockMs };
  // The attempt is counted before the password is verified, so parallel attempts cannot all pass a lock
  // read before any failure is written: a wrong answer keeps its count, a right one gives it back.
  const locked = await reserveAttempt(d, [account, address]);
  if (locked) throw lockedError(locked, d.clock.now());
  const candidates = await d.store.people.activeByEmail(kind, email);
  // One derivation whatever the number of accounts with this email: they share its salt (emailSalt).
  const matched = await verifyAgainst(
    body.password,
    candidates.map((c) => c.passwordHash),
  );
  const person: PersonCredentials | null = matched < 0 ? null : candidates[matched]!;
  const failed = async (reason: string) => {
    await audit(d, {
      actor: 'anonymous',
      action: 'sign_in.failed',
      subjectType: kind,
      subjectId: person?.id ?? candidates[0]?.id ?? 'unknown',
      before: null,
      after: { email, address: ip, reason },
    });
    return new DomainError('auth.sign_in_failed');
  };
  if (!person) throw await failed('password');
  if (person.totpSealed) {
    const code = body.code?.trim();
    if (!code) {
      // The password was right: asking for the code is not a failure.
      await releaseAttempt(d, [account, address]);
      throw new DomainError('auth.code_required');
    }
    if (!(await acceptSecondFactor(d, person, code))) throw await failed('code');
  }
  await clearFailures(d, account.key);
  await releaseAttempt(d, [address]);
  const salt = emailSalt(d.secret, kind, person.email);
  if (needsRehash(person.passwordHash, salt)) {
    // The same password hashed again (its email's salt, today's cost); sessions go on.
    const hash = await hashPassword(body.password, salt);
    await d.store.uow.run((tx) => d.store.people.putCredentials(tx, kind, person.id, { passwordHash: hash }, d.clock.now()));
  }
  const s = await openSession(d, kind, person.id, previous);
  await audit(d, {
    actor: actorOf(kind, person.id),
    action: 'sign_in',
    subjectType: kind,
    subjectId: person.id,
    before: null,
    after: { address: ip, secondFactor: person.totpSealed !== null },
  });
  return { person, ...s };
}

/** An audit entry of its own: an attempt's outcome is recorded whatever happens next. */
async function audit(d: PeopleDeps, r: AuditRecord): Promise<void> {
  await d.store.uow.run((tx) => d.store.audit.record(tx, d.ids, d.clock.now(), r));
}

function lockedError(until: Date, now: Date): DomainError {
  const ms = BigInt(until.getTime() - now.getTime());
  const seconds = ms <= 1000n ? 1n : (ms + 999n) / 1000n;
  return new DomainError('auth.sign_in_locked', { until: until.toISOString(), seconds: String(seconds) });
}

/** A TOTP code of a step later than the last one used (so never twice), or an unused recovery code. */
async function acceptSecondFactor(d: PeopleDeps, p: PersonCredentials, code: string): Promise<boolean> {
  if (/^[0-9]{6}$/.test(code)) {
    const secret = new TotpSealer(d.secret).open(p.totpSealed!, { kind: p.kind, id: p.id, field: 'secret' });
    const step = totpStep(secret, code, d.clock.now());
    if (step === null || (p.totpLastStep !== null && step <= p.totpLastStep)) return false;
    // The database has the last word: of two sign-ins with the same code, one records the step.
    return d.store.uow.run((tx) => d.store.people.useTotpStep(tx, p.kind, p.id, step, d.clock.now()));
  }
  if (looksLikeRecoveryCode(code)) {
    const hash = hashRecoveryCode(d.secret, code);
    const used = await d.store.uow.run((tx) => d.store.people.useRecoveryCode(tx, p.kind, p.id, hash, d.clock.now()));
    if (used)
      await audit(d, {
        actor: actorOf(p.kind, p.id),
        action: 'recovery_code.use',
        subjectType: p.kind,
        subjectId: p.id,
        before: null,
        after: { remaining: p.recoveryHashes.length - 1 },
      });
    return used;
  }
  return false;
}
