import { DomainError } from '../../domain/errors.ts';
import { compareHoldings, figureToJson } from '../../domain/reconciliation/compare.ts';
import type { UseCaseDeps } from '../ports.ts';
import type { RunRow } from '../repositories.ts';

/**
 * Reconciliation (docs/operator-guide.md): what the books say the platform holds at the market against the given
 * balances or, absent, the venue's: an exchange account's balances (custody), or the books the simulated venue
 * keeps here; the desk must send them. A mismatch stops every client operation that moves money until a person resolves it; a later
 * matching run does not lift it.
 */
export async function runReconciliation(
  d: UseCaseDeps,
  actor: string,
  given: Map<string, bigint> | null,
): Promise<{ run: RunRow; reconciled: boolean }> {
  // An exchange's balances are read before the transaction: a network call never runs while the run holds
  // the platform's state, which every money write waits on (docs/design/server-layers.md, "Ports").
  const readFirst = given ?? (d.venue.custody ? await d.venue.custody.balances() : null);
  const at = d.clock.now();
  const id = d.ids.next('rec');
  return d.store.uow.run(async (tx) => {
    const state = await d.store.reconciliation.lockState(tx);
    // Books kept here are read first: that shuts out their writers, so the books read next are of the same moment.
    const market = readFirst ?? (d.venue.heldInBooks ? await d.venue.heldInBooks(tx) : null);
    if (market === null) throw new DomainError('reconciliation.market_balances_required');
    // Given figures cover the assets a person entered: one left out is not compared (docs/operator-guide.md, Reconciliation), never taken as zero.
    const allBooks = await d.store.reconciliation.books(tx);
    const books = given ? new Map([...given.keys()].map((a) => [a, allBooks.get(a) ?? 0n])) : allBooks;
    const { matched, figures } = compareHoldings(books, market);
    const source = given ? ('given' as const) : ('venue' as const);
    const stop = state.reconciled && !matched;
    await d.store.reconciliation.recordRun(tx, id, at, { actor, matched, source, figures, stop });
    const reconciled = state.reconciled && matched;
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: matched ? 'reconciliation.run' : 'reconciliation.mismatch',
      subjectType: 'platform',
      subjectId: 'platform',
      before: { reconciled: state.reconciled, stoppedByRunId: state.reconciled ? null : state.stoppedByRunId },
      after: {
        reconciled,
        stoppedByRunId: reconciled ? null : state.reconciled ? id : state.stoppedByRunId,
        runId: id,
        matched,
        source,
        mismatches: figures.filter((f) => !f.matched).map(figureToJson),
      },
    });
    return { run: { id, matched, source, figures, actor, createdAt: at }, reconciled };
  });
}
