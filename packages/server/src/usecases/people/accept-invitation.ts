import { DomainError } from '../../domain/errors.ts';
import { assertPasswordStrong, emailSalt, hashPassword } from '../../domain/people/password.ts';
import { hashOpaque } from '../../domain/people/tokens.ts';
import { actorOf, type NewSession, type SessionDeps } from './people-deps.ts';
import { openSession } from './open-session.ts';
import type { PersonKind } from '../repositories.ts';

/**
 * Accepts an invitation: the person chooses a password, becomes active and is signed in. The token is
 * used once: it must be unused and unexpired and its person still invited; otherwise 410
 * auth.invitation_invalid (unknown, used, expired or revoked).
 */
export async function acceptInvitation(
  d: SessionDeps,
  kind: PersonKind,
  token: string,
  password: string,
  previous: string | null,
): Promise<{ id: string } & NewSession> {
  assertPasswordStrong(password);
  const tokenHash = hashOpaque(d.secret, 'invitation', token);
  const email = await d.store.people.invitedEmail(kind, tokenHash);
  if (email === null) throw new DomainError('auth.invitation_invalid');
  assertPasswordStrong(password, { email });
  const hash = await hashPassword(password, emailSalt(d.secret, kind, email));
  const at = d.clock.now();
  const id = await d.store.uow.run(async (tx) => {
    const invited = await d.store.people.useInvitation(tx, kind, tokenHash, at);
    if (!invited) return null;
    // The token stays used even when its person was removed meanwhile: it never works again.
    const pid = await d.store.people.activateInvited(tx, kind, invited, at);
    if (!pid) return null;
    await d.store.people.putCredentials(tx, kind, pid, { passwordHash: hash }, at);
    await d.store.audit.record(tx, d.ids, at, {
      actor: actorOf(kind, pid),
      action: 'invitation.accept',
      subjectType: kind,
      subjectId: pid,
      before: { status: 'invited' },
      after: { status: 'active' },
    });
    return pid;
  });
  if (!id) throw new DomainError('auth.invitation_invalid');
  return { id, ...(await openSession(d, kind, id, previous)) };
}
