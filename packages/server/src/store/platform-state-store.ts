import type { Transaction } from 'kysely';
import { DomainError } from '../domain/errors.ts';
import type { Db } from './db.ts';
import type { PlatformStateRepository, Tx as OpaqueTx } from '../usecases/repositories.ts';
import type { Database } from './schema.ts';
import { kyselyOf } from './unit-of-work.ts';

/** Whether the platform's books agree with the market (docs/operator-guide.md, reconciliation). */
export class PlatformStateStore implements PlatformStateRepository {
  constructor(private readonly db: Db) {}
  async isReconciled(): Promise<boolean> {
    const r = await this.db.selectFrom('platform_state').select('reconciled').where('id', '=', 1).executeTakeFirst();
    return r?.reconciled ?? true;
  }
  assertReconciled(tx: OpaqueTx): Promise<void> {
    return assertReconciled(kyselyOf(tx));
  }
}

/**
 * The stop, read again inside a write's transaction under a share lock: a reconciliation that
 * records a mismatch (an UPDATE of that row) waits for the requests in flight, and every request
 * after it sees the stop. The check at authentication answers early; this one decides.
 */
export async function assertReconciled(tx: Transaction<Database>): Promise<void> {
  const s = await tx.selectFrom('platform_state').select('reconciled').where('id', '=', 1).forShare().executeTakeFirst();
  if (s && !s.reconciled) throw new DomainError('ledger.ledger_not_reconciled');
}
