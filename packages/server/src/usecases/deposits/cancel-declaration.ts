import type { Declaration } from '../../domain/deposits/declaration.ts';
import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';

/**
 * The organization withdraws its open declaration: it stops matching arrivals at once (a transfer that
 * still comes waits unattributed, like any amount without a declaration). A second cancel answers the
 * cancelled declaration again and writes nothing; a matched or expired one is 409. Another
 * organization's is not found. Moves no money, so it is allowed while the books are not reconciled.
 */
export async function cancelDeclaration(d: UseCaseDeps, actor: string, organizationId: string, id: string): Promise<Declaration> {
  return d.store.uow.run(async (tx) => {
    const at = d.clock.now();
    const cur = await d.store.declarations.lockFor(tx, organizationId, id);
    if (!cur) throw new DomainError('deposits.declaration_not_found');
    if (cur.state === 'cancelled') return cur;
    // Past its expiry it is expired, whether or not the background task has closed it yet.
    const state = cur.state === 'open' && cur.expiresAt.getTime() <= at.getTime() ? 'expired' : cur.state;
    if (state !== 'open') throw new DomainError('deposits.declaration_not_open', { state });
    const done = await d.store.declarations.cancel(tx, id, at);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'declaration.cancel',
      subjectType: 'declaration',
      subjectId: id,
      before: { state: 'open' },
      after: { state: 'cancelled', assetSymbol: done.assetSymbol, expectedAmountMinor: done.expectedAmount.toString() },
    });
    return done;
  });
}
