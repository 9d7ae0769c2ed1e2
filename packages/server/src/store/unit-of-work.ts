import type { Transaction } from 'kysely';
import type { Tx as OpaqueTx, UnitOfWork } from '../usecases/repositories.ts';
import type { Db } from './db.ts';
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
 * inside commits together or not at all.
 */
export class KyselyUnitOfWork implements UnitOfWork {
  constructor(private readonly db: Db) {}
  run<T>(work: (tx: OpaqueTx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }
}
