import type { Transaction } from 'kysely';
import type { Db } from './db.ts';
import type { Database } from './schema.ts';

/** An open transaction: repositories write through it; a use case passes it along and never reads inside it. */
export type Tx = Transaction<Database>;

/**
 * The unit-of-work port's adapter (usecases/ports.ts): one database transaction around a use case's
 * work. Everything written inside commits together or not at all.
 */
export class KyselyUnitOfWork {
  constructor(private readonly db: Db) {}
  run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }
}
