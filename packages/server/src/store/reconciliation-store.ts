import { figureToJson, type Figure, type StoredFigure } from '../domain/reconciliation/compare.ts';
import type { Db } from './db.ts';
import { toJson } from './json.ts';
import type { Tx } from './unit-of-work.ts';
import type { RunRow, PlatformStateRow, ReconciliationRepository, LockedPlatformState } from '../usecases/repositories.ts';

export type { RunRow, PlatformStateRow };

const figureFromJson = (f: StoredFigure): Figure => ({
  assetSymbol: f.assetSymbol,
  books: BigInt(f.booksMinor),
  market: BigInt(f.marketMinor),
  difference: BigInt(f.differenceMinor),
  matched: f.matched,
});

/**
 * Reconciliation (docs/operator-guide.md): the platform's books against the market, and the stop it puts on every
 * client operation that moves money. Only a person lifts the stop (usecases/reconciliation/resolve.ts); a later
 * matching run does not.
 */
export class ReconciliationStore implements ReconciliationRepository {
  constructor(private readonly db: Db) {}

  /** Locks the state row: runs and resolves take turns, and wait for withdrawal requests and approvals in flight. */
  async lockState(tx: Tx): Promise<LockedPlatformState> {
    const s = await tx
      .selectFrom('platform_state')
      .select(['reconciled', 'run_id', 'changed_at'])
      .where('id', '=', 1)
      .forUpdate()
      .executeTakeFirstOrThrow();
    return { reconciled: s.reconciled, stoppedByRunId: s.run_id, changedAt: s.changed_at };
  }

  /** The books' figures now, outside a transaction (what the desk shows before a run). */
  booksNow(): Promise<Map<string, bigint>> {
    return this.#books(this.db);
  }

  /** What the books say the platform holds at the market per asset: minus its `market` account. */
  books(tx: Tx): Promise<Map<string, bigint>> {
    return this.#books(tx);
  }

  async #books(tx: Tx | Db): Promise<Map<string, bigint>> {
    const rows = await tx
      .selectFrom('accounts')
      .select(['asset_symbol', 'balance'])
      .where('owner_id', '=', 'platform')
      .where('kind', '=', 'market')
      .execute();
    return new Map(rows.map((r) => [r.asset_symbol, -BigInt(r.balance)]));
  }

  /** Records a run with its figures; a mismatch puts a reconciled platform in the not-reconciled state. */
  async recordRun(
    tx: Tx,
    id: string,
    at: Date,
    r: { actor: string; matched: boolean; source: 'given' | 'venue'; figures: Figure[]; stop: boolean },
  ): Promise<void> {
    await tx
      .insertInto('reconciliation_runs')
      .values({
        id,
        matched: r.matched,
        figures: toJson({ source: r.source, figures: r.figures.map(figureToJson) }),
        actor: r.actor,
        created_at: at,
      })
      .execute();
    if (r.stop) await tx.updateTable('platform_state').set({ reconciled: false, run_id: id, changed_at: at }).where('id', '=', 1).execute();
  }

  /** Lifts the stop (a person reviewed the mismatch); the run that put it stays recorded. */
  async markReconciled(tx: Tx, at: Date): Promise<void> {
    await tx.updateTable('platform_state').set({ reconciled: true, changed_at: at }).where('id', '=', 1).execute();
  }

  async state(): Promise<PlatformStateRow> {
    const [s, last] = await Promise.all([
      this.db.selectFrom('platform_state').select(['reconciled', 'run_id', 'changed_at']).where('id', '=', 1).executeTakeFirstOrThrow(),
      this.db.selectFrom('reconciliation_runs').selectAll().orderBy('seq', 'desc').limit(1).executeTakeFirst(),
    ]);
    const lastRun = last
      ? (() => {
          const f = last.figures as { source: 'given' | 'venue'; figures: StoredFigure[] };
          return {
            id: last.id,
            matched: last.matched,
            source: f.source,
            figures: f.figures.map(figureFromJson),
            actor: last.actor,
            createdAt: last.created_at,
          };
        })()
      : null;
    return { reconciled: s.reconciled, changedAt: s.changed_at, stoppedByRunId: s.reconciled ? null : s.run_id, lastRun };
  }
}
