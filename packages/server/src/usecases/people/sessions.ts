import type { UseCaseDeps } from '../ports.ts';

type SessionUseDeps = Pick<UseCaseDeps, 'store' | 'clock'>;

/** Sign-out: the session (by its id's hash) ends now. */
export async function endSession(d: SessionUseDeps, idHash: string): Promise<void> {
  await d.store.uow.run((tx) => d.store.people.endSession(tx, idHash, d.clock.now()));
}

/** Moves a session's last use forward (the authentication does it at most once a minute). */
export async function touchSession(d: SessionUseDeps, idHash: string): Promise<void> {
  await d.store.uow.run((tx) => d.store.people.touchSession(tx, idHash, d.clock.now()));
}
