import { hashOpaque, newOpaque } from '../../domain/people/tokens.ts';
import type { NewSession, SessionDeps } from './people-deps.ts';
import type { PersonKind } from '../repositories.ts';

/**
 * A new session for the person, with a new id every time (rotation): the session the browser held
 * before (`previous`, when any) ends in the same transaction. Only the id's keyed hash is stored.
 */
export async function openSession(d: SessionDeps, kind: PersonKind, id: string, previous: string | null): Promise<NewSession> {
  const sessionId = newOpaque();
  const endHash = previous ? hashOpaque(d.secret, 'session', previous) : null;
  const idHash = hashOpaque(d.secret, 'session', sessionId);
  const at = d.clock.now();
  const expiresAt = new Date(at.getTime() + d.config.sessionMaxMs);
  await d.store.uow.run(async (tx) => {
    if (endHash) await d.store.people.endSession(tx, endHash, at);
    await d.store.people.insertSession(tx, { idHash, kind, subjectId: id, at, expiresAt });
  });
  return { sessionId, expiresAt };
}
