import type { Clock, Ids } from '../../domain/ports.ts';
import type { PersonKind, Repositories } from '../repositories.ts';

/** What the people use cases work with: the store, time, ids, and the server secret (keyed hashes, sealed TOTP secrets). */
export interface PeopleDeps {
  store: Repositories;
  clock: Clock;
  ids: Ids;
  secret: string;
}

/** …and, for those that sign a person in, how long a session lasts at most. */
export interface SessionDeps extends PeopleDeps {
  config: { sessionMaxMs: number };
}

/** A person as the audit trail names them. */
export const actorOf = (kind: PersonKind, id: string) => `${kind}:${id}`;

/** A new session: the cookie's value (shown once, to the browser) and when it ends at the latest. */
export interface NewSession {
  sessionId: string;
  expiresAt: Date;
}
