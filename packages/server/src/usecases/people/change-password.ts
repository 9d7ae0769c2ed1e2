import { DomainError } from '../../domain/errors.ts';
import { assertPasswordStrong, emailSalt, hashPassword, verifyPassword } from '../../domain/people/password.ts';
import { hashOpaque } from '../../domain/people/tokens.ts';
import { actorOf, type PeopleDeps } from './people-deps.ts';
import type { PersonKind } from '../repositories.ts';

/** A new password, the current one proven; every other session of the person ends with it, in one transaction. */
export async function changePassword(
  d: PeopleDeps,
  kind: PersonKind,
  id: string,
  current: string,
  next: string,
  sessionId: string,
): Promise<void> {
  const p = await d.store.people.credentialsOf(kind, id);
  if (!p || !(await verifyPassword(current, p.passwordHash))) throw new DomainError('auth.current_password_wrong');
  assertPasswordStrong(next, { email: p.email, current });
  const hash = await hashPassword(next, emailSalt(d.secret, kind, p.email));
  const keep = hashOpaque(d.secret, 'session', sessionId);
  await d.store.uow.run(async (tx) => {
    const at = d.clock.now();
    await d.store.people.putCredentials(tx, kind, id, { passwordHash: hash }, at);
    await d.store.people.endSessionsOf(tx, kind, id, at, keep);
    await d.store.audit.record(tx, d.ids, at, {
      actor: actorOf(kind, id),
      action: 'password.change',
      subjectType: kind,
      subjectId: id,
      before: null,
      after: { otherSessionsEnded: true },
    });
  });
}
