import type { Config } from '../../config.ts';
import type { Store } from '../../store/index.ts';
import { APPEND_BATCH } from '../../store/transparency-store.ts';
import { logIdentity } from './log-signer.ts';

/**
 * Appends every committed journal entry not yet in the log, a batch per transaction, and signs a
 * checkpoint after each batch (so a checkpoint follows every write within one run of the task).
 * Any number of instances may run it: the store serializes them on the log's head row.
 */
export async function appendJournalLog(deps: { config: Pick<Config, 'logName' | 'logSigningKey'>; store: Store; secret: string }): Promise<number> {
  const id = await logIdentity(deps);
  let total = 0;
  for (;;) {
    const n = await deps.store.transparency.appendNext(id.signCheckpoint, APPEND_BATCH);
    total += n;
    if (n < APPEND_BATCH) return total;
  }
}
