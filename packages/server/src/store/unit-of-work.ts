import type { Transaction } from 'kysely';
import type { Tx as OpaqueTx, UnitOfWork } from '../usecases/repositories.ts';
import type { Db } from './db.ts';
import { keyedRequests, type IdempotencyStore } from './idempotency-store.ts';
import type { Database } from './schema.ts';

/** An open transaction as the store sees it: repositories write through it. */
export type Tx = Transaction<Database>;

declare module 'kysely' {
  // Every Kysely transaction is the use cases' opaque Tx, so the unit of work hands its own over as it is
  // and a repository called from inside the store takes the store's; the way back is kyselyOf alone.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars, @typescript-eslint/no-empty-object-type
  interface Transaction<DB> extends OpaqueTx {}
}

/** The one place an opaque Tx becomes SQL again: the unit of work below is the only maker of a Tx. */
export function kyselyOf(tx: OpaqueTx): Tx {
  return tx as Tx;
}

/**
 * The unit-of-work port's adapter: one database transaction around a use case's work. Everything written
 * inside commits together or not at all. The first transaction of a request carrying an Idempotency-Key
 * claims the key first and, for a route answered by reference, keeps the answer last (docs/design/server-layers.md).
 */
export class KyselyUnitOfWork implements UnitOfWork {
  constructor(
    private readonly db: Db,
    private readonly keys: IdempotencyStore,
  ) {}
  run<T>(work: (tx: OpaqueTx) => Promise<T>): Promise<T> {
    const k = keyedRequests.getStore();
    if (k?.state !== 'open') return this.db.transaction().execute(work);
    return this.keys.ran(k, () =>
      this.db.transaction().execute(async (tx) => {
        await this.keys.claim(tx, k);
        const result = await work(tx);
        await this.keys.keepInWork(tx, k, result);
        return result;
      }),
    );
  }
}
