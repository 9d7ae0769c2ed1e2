import type { UseCaseDeps } from '../ports.ts';

/**
 * Closes every declaration past its expiry (the background task), whether or not anything reads it: it
 * frees its amount too. Their events (declaration.expired) are written by the table's trigger. Returns how many.
 */
export async function expireDeclarations(d: Pick<UseCaseDeps, 'store' | 'clock'>): Promise<number> {
  const now = d.clock.now();
  return d.store.uow.run((tx) => d.store.declarations.expireDue(tx, now));
}
