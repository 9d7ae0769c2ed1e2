import type { Repositories } from '../repositories.ts';

/**
 * A key authenticated a request at `at`: its `lastUsedAt` (shown in the portal and to the operator) moves
 * forward. The keys repository gathers these and writes them together a few seconds later, one statement
 * for all of them, off the request's path: last use is informative, and losing the last few seconds of it
 * in a crash changes no decision.
 */
export function recordKeyUse(d: { store: Pick<Repositories, 'keys'> }, keyId: string, at: Date): void {
  d.store.keys.touch(keyId, at);
}

/** Before keys are listed with their last use: the uses remembered so far are written first, so the list is current. */
export async function writeKeyUses(d: { store: Pick<Repositories, 'keys'> }): Promise<void> {
  await d.store.keys.flushLastUsed();
}
