import assert from 'node:assert/strict';
import { appendJournalLog } from '../src/usecases/transparency/append-log.ts';
import type { Harness } from './harness.ts';

/**
 * Appends until the log holds `size` entries. On a PostgreSQL server shared with other work, an entry
 * waits until every transaction older than its own is over (migration 022), so one run may take fewer.
 */
export async function appendUntil(h: Harness, size: number): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    await appendJournalLog(h.deps);
    if ((await h.store.transparency.size()) >= size) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail(`the log never reached ${size} entries`);
}
