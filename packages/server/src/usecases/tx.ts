declare const txBrand: unique symbol;
/**
 * An open transaction, opaque: a use case receives it from the unit of work and hands it to repositories;
 * it cannot run anything in it itself. Only the store turns it back into SQL (store/unit-of-work.ts).
 */
export interface Tx {
  readonly [txBrand]: true;
}

/** The unit of work: a use case's writes (and its audit entry) commit together or not at all. */
export interface UnitOfWork {
  run<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
}
