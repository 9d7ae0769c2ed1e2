import { sql, type Transaction } from 'kysely';
import { compareHoldings, type Figure } from '../domain/reconciliation/compare.ts';
import type { Clock, Ids } from '../domain/ports.ts';
import { recordAudit } from './audit-store.ts';
import type { Db } from './db.ts';
import { toJson } from './json.ts';
import type { Database } from './schema.ts';

type Tx = Transaction<Database>;

export interface RunRow { id: string; matched: boolean; source: 'given' | 'venue'; figures: Figure[]; actor: string; createdAt: Date }
export interface PlatformStateRow { reconciled: boolean; changedAt: Date; stoppedByRunId: string | null; lastRun: RunRow | null }

type StoredFigure = { assetSymbol: string; booksMinor: string; marketMinor: string; differenceMinor: string; matched: boolean };
const figureToJson = (f: Figure): StoredFigure => ({
  assetSymbol: f.assetSymbol, booksMinor: f.books.toString(), marketMinor: f.market.toString(), differenceMinor: f.difference.toString(), matched: f.matched,
});
const figureFromJson = (f: StoredFigure): Figure => ({
  assetSymbol: f.assetSymbol, books: BigInt(f.booksMinor), market: BigInt(f.marketMinor), difference: BigInt(f.differenceMinor), matched: f.matched,
});

/**
 * Reconciliation (CONTRACT §3): the platform's books against the market, and the stop it puts on every
 * client operation that moves money. Only a person lifts the stop (resolve); a later matching run does not.
 */
export class ReconciliationStore {
  constructor(private readonly db: Db, private readonly ids: Ids, private readonly clock: Clock) {}

  /** Locks the state row: runs and resolves take turns, and wait for withdrawal requests and approvals in flight. */
  async #lockState(tx: Tx) {
    return tx.selectFrom('platform_state').select(['reconciled', 'run_id', 'changed_at']).where('id', '=', 1).forUpdate().executeTakeFirstOrThrow();
  }

  /**
   * What the books say the platform holds at the market (minus its `market` account) and what the simulated
   * venue holds, per asset, read in ONE statement so both sides come from the same snapshot.
   */
  async #holdings(tx: Tx): Promise<{ books: Map<string, bigint>; venue: Map<string, bigint> }> {
    const r = await sql<{ asset_symbol: string; books: string | null; venue: string | null }>`
      select asset_symbol, sum(books)::text as books, sum(venue)::text as venue from (
        select asset_symbol, -balance as books, null::numeric as venue from accounts where owner_id = 'platform' and kind = 'market'
        union all
        select asset_symbol, null::numeric, amount from venue_balances
      ) t group by asset_symbol`.execute(tx);
    const books = new Map<string, bigint>();
    const venue = new Map<string, bigint>();
    for (const x of r.rows) {
      if (x.books !== null) books.set(x.asset_symbol, BigInt(x.books));
      if (x.venue !== null) venue.set(x.asset_symbol, BigInt(x.venue));
    }
    return { books, venue };
  }

  /** Compares and records the run with its figures; a mismatch puts the platform in the not-reconciled state. */
  async run(actor: string, given: Map<string, bigint> | null): Promise<{ run: RunRow; reconciled: boolean }> {
    const at = this.clock.now();
    const id = this.ids.next('rec');
    return this.db.transaction().execute(async (tx) => {
      const state = await this.#lockState(tx);
      const { books, venue } = await this.#holdings(tx);
      const { matched, figures } = compareHoldings(books, given ?? venue);
      const source = given ? 'given' as const : 'venue' as const;
      await tx.insertInto('reconciliation_runs').values({
        id, matched, figures: toJson({ source, figures: figures.map(figureToJson) }), actor, created_at: at,
      }).execute();
      const reconciled = state.reconciled && matched;
      if (state.reconciled && !matched) {
        await tx.updateTable('platform_state').set({ reconciled: false, run_id: id, changed_at: at }).where('id', '=', 1).execute();
      }
      await recordAudit(tx, this.ids, at, {
        actor, action: matched ? 'reconciliation.run' : 'reconciliation.mismatch', subjectType: 'platform', subjectId: 'platform',
        before: { reconciled: state.reconciled, stoppedByRunId: state.reconciled ? null : state.run_id },
        after: {
          reconciled, stoppedByRunId: reconciled ? null : state.reconciled ? id : state.run_id, runId: id, matched, source,
          mismatches: figures.filter((f) => !f.matched).map(figureToJson),
        },
      });
      return { run: { id, matched, source, figures, actor, createdAt: at }, reconciled };
    });
  }

  /** A person reviewed the mismatch: operations resume. Already reconciled: nothing changes, nothing is recorded. */
  async resolve(actor: string, note: string | null): Promise<PlatformStateRow> {
    const at = this.clock.now();
    await this.db.transaction().execute(async (tx) => {
      const s = await this.#lockState(tx);
      if (s.reconciled) return;
      await tx.updateTable('platform_state').set({ reconciled: true, changed_at: at }).where('id', '=', 1).execute();
      await recordAudit(tx, this.ids, at, {
        actor, action: 'reconciliation.resolve', subjectType: 'platform', subjectId: 'platform',
        before: { reconciled: false, stoppedByRunId: s.run_id, since: s.changed_at.toISOString() },
        after: { reconciled: true, stoppedByRunId: s.run_id, note },
      });
    });
    return this.state();
  }

  async state(): Promise<PlatformStateRow> {
    const [s, last] = await Promise.all([
      this.db.selectFrom('platform_state').select(['reconciled', 'run_id', 'changed_at']).where('id', '=', 1).executeTakeFirstOrThrow(),
      this.db.selectFrom('reconciliation_runs').selectAll().orderBy('seq', 'desc').limit(1).executeTakeFirst(),
    ]);
    const lastRun = last ? (() => {
      const f = last.figures as { source: 'given' | 'venue'; figures: StoredFigure[] };
      return { id: last.id, matched: last.matched, source: f.source, figures: f.figures.map(figureFromJson), actor: last.actor, createdAt: last.created_at };
    })() : null;
    return { reconciled: s.reconciled, changedAt: s.changed_at, stoppedByRunId: s.reconciled ? null : s.run_id, lastRun };
  }
}
