import { THROTTLE } from '../../domain/people/throttle.ts';
import type { UseCaseDeps } from '../ports.ts';
import type { ThrottleKey } from '../repositories.ts';

type ThrottleDeps = Pick<UseCaseDeps, 'store' | 'clock'>;

/** Rolls back an attempt's reservation when one of its keys is locked. */
class KeyLocked extends Error {}

/**
 * Reserves one attempt on every key, before the password is verified: each key's count goes up at once
 * (an attempt in flight counts as a failure), and the attempt that reaches a key's limit locks it. The
 * row's lock orders parallel attempts, so at most `limit` of them are ever verified in a window however
 * many arrive together. A key already locked reserves nothing: the answer is its lock's end, and no
 * other key is counted either (one transaction).
 */
export async function reserveAttempt(d: ThrottleDeps, keys: ThrottleKey[]): Promise<Date | null> {
  const now = d.clock.now();
  const windowStart = new Date(now.getTime() - THROTTLE.windowMs);
  try {
    await d.store.uow.run(async (tx) => {
      for (const k of keys) if (!(await d.store.people.countAttempt(tx, k, now, windowStart))) throw new KeyLocked();
    });
    return null;
  } catch (e) {
    if (!(e instanceof KeyLocked)) throw e;
    return (await d.store.people.lockedUntil(keys.map((k) => k.key))) ?? new Date(now.getTime() + 1000);
  }
}

/** Gives back an attempt reserved on each key (it was not a failure): one less, and no lock below the limit. Each key on its own. */
export async function releaseAttempt(d: ThrottleDeps, keys: Array<{ key: string; limit: number }>): Promise<void> {
  for (const k of keys) await d.store.uow.run((tx) => d.store.people.releaseAttempt(tx, k));
}

/** Forgets the key's failures (and its lock). */
export async function clearFailures(d: ThrottleDeps, key: string): Promise<void> {
  await d.store.uow.run((tx) => d.store.people.clearFailures(tx, key));
}
