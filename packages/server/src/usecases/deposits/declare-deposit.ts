import type { Declaration } from '../../domain/deposits/declaration.ts';
import { newReference } from '../../domain/deposits/reference.ts';
import { cryptoRandomBelow, pickTail, tailPlan, TAIL_QUARANTINE_MS, type RandomBelow } from '../../domain/deposits/tail.ts';
import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';

/**
 * A tail can still collide with a declaration inserted by a concurrent transaction (invisible until it
 * commits); each collision is retried with another free tail, at most this many times in all.
 */
const MAX_ATTEMPTS = 16;

/** `random`: how a free tail is drawn (a test draws the lowest); absent, at random. */
export type DeclareDeps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'> & { random?: RandomBelow | undefined };

export interface DeclarationRequest {
  assetSymbol: string;
  assetDecimals: number;
  declaredAmount: bigint;
  ttlMs: number;
}

/**
 * Declares a deposit: the answer gives the exact amount to send, the declared amount plus a unique tail.
 * The two partial unique indexes decide under any concurrency: `declarations_one_open_per_org` (409
 * deposits.declaration_already_open) and `declarations_unique_open_amount` (another tail is tried).
 * A tail never gives the amount of an open declaration, nor of one (matched or not) whose expiry is
 * less than TAIL_QUARANTINE_MS ago; a band with none free is 503 deposits.no_unique_amount.
 * Refused while not reconciled. Its event (declaration.created) is written by the table's trigger.
 */
export async function declareDeposit(d: DeclareDeps, organizationId: string, r: DeclarationRequest): Promise<Declaration> {
  const now = d.clock.now();
  const expiresAt = new Date(now.getTime() + r.ttlMs);
  const declarations = d.store.declarations;
  return d.store.uow.run(async (tx) => {
    await d.store.platform.assertReconciled(tx);
    // Locked for share: the decimals cannot change until this declaration is committed.
    const decimals = await declarations.lockedDecimals(tx, r.assetSymbol);
    if (decimals === null) throw new DomainError('deposits.asset_not_receivable', { asset: r.assetSymbol });
    // docs/design/money-and-states.md: a factor error is caught, never guessed.
    if (decimals !== r.assetDecimals) {
      throw new DomainError('market.decimals_mismatch', {
        asset: r.assetSymbol,
        sent: String(r.assetDecimals),
        expected: String(decimals),
      });
    }
    const wallet = await declarations.walletOf(tx, r.assetSymbol);
    if (!wallet) throw new DomainError('deposits.asset_not_receivable', { asset: r.assetSymbol });
    const plan = tailPlan(decimals, r.declaredAmount, r.assetSymbol);

    // Expiry is exact even when the background task has not run yet: a stale declaration of this
    // organization must not block it, nor a stale one of this asset hold an amount.
    await declarations.expireDue(tx, now, { organizationId, assetSymbol: r.assetSymbol });
    if (await declarations.hasOpen(tx, organizationId)) throw new DomainError('deposits.declaration_already_open');

    const quarantineStart = new Date(now.getTime() - TAIL_QUARANTINE_MS);
    const lo = r.declaredAmount + plan.min;
    const hi = r.declaredAmount + plan.max;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      // Taken: the amounts of open declarations, and of closed ones still in quarantine, so a late
      // transfer for a closed declaration never matches whoever drew the same amount next.
      const used = await declarations.amountsTaken(tx, r.assetSymbol, lo, hi, quarantineStart);
      const tail = pickTail(plan, new Set(used.map((u) => u - r.declaredAmount)), d.random ?? cryptoRandomBelow);
      if (tail === null) break;
      const row = await declarations.insertOpen(tx, {
        id: d.ids.next('dcl'),
        organizationId,
        reference: newReference(),
        assetSymbol: r.assetSymbol,
        assetDecimals: decimals,
        declaredAmount: r.declaredAmount,
        expectedAmount: r.declaredAmount + tail,
        network: wallet.network,
        address: wallet.address,
        expiresAt,
        at: now,
      });
      if (row) return row;
      // No row: one of the two indexes refused it. Which one is read now (READ COMMITTED sees the winner).
      if (await declarations.hasOpen(tx, organizationId)) throw new DomainError('deposits.declaration_already_open');
    }
    throw new DomainError('deposits.no_unique_amount');
  });
}
