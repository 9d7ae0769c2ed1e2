import type { Config } from '../../config.ts';
import type { Clock } from '../../domain/ports.ts';
import { canonicalLeaf } from '../../domain/transparency/leaf.ts';
import { appendLeaves, foldRight, leafHash } from '../../domain/transparency/merkle.ts';
import type { Repositories, SignCheckpoint } from '../repositories.ts';
import { logIdentity } from './log-signer.ts';

/** Entries appended per transaction: a batch's nodes and leaves are one insert each. */
export const APPEND_BATCH = 1000;

/**
 * Appends every committed journal entry not yet in the log, a batch per transaction, and signs a
 * checkpoint after each batch (so a checkpoint follows every write within one run of the task).
 * Any number of instances may run it: each batch holds the log's head row, so a second appender waits,
 * then continues from the head the first left.
 */
export async function appendJournalLog(deps: {
  config: Pick<Config, 'logName' | 'logSigningKey'>;
  store: Repositories;
  clock: Clock;
  secret: string;
}): Promise<number> {
  const id = await logIdentity(deps);
  let total = 0;
  for (;;) {
    const n = await appendLogBatch(deps, id.signCheckpoint, APPEND_BATCH);
    total += n;
    if (n < APPEND_BATCH) return total;
  }
}

/** Appends the next entries whose transactions are over, at most `limit`, with the signed checkpoint of the new size. Answers how many joined. */
export async function appendLogBatch(deps: { store: Repositories; clock: Clock }, sign: SignCheckpoint, limit: number): Promise<number> {
  const log = deps.store.transparency;
  return deps.store.uow.run(async (tx) => {
    const head = await log.lockHead(tx);
    const entries = await log.finishedEntriesAfter(tx, head.last, limit);
    if (entries.length === 0) return 0;
    const leafHashes = entries.map((e, i) =>
      leafHash(
        Buffer.from(
          canonicalLeaf({
            index: head.size + i,
            entryId: e.id,
            createdAt: e.createdAt,
            kind: e.kind,
            postings: e.postings,
          }),
          'utf8',
        ),
      ),
    );
    const grown = appendLeaves(head.size, head.frontier, leafHashes);
    const root = foldRight(grown.frontier);
    const last = entries[entries.length - 1]!;
    await log.grow(tx, {
      from: head.size,
      entryIds: entries.map((e) => e.id),
      leafHashes,
      nodes: grown.nodes,
      frontier: grown.frontier,
      last: { txid: last.txid, seq: last.seq },
      root,
      note: sign(head.size + entries.length, root),
      at: deps.clock.now(),
    });
    return entries.length;
  });
}
