import { randomBytes } from 'node:crypto';
import { venueFeeEntry } from '../../domain/orders/settlement-entry.ts';
import type { Tx, UseCaseDeps } from '../ports.ts';
import type { WithdrawalRow } from '../repositories.ts';
import { withdrawalAudit } from './audit-view.ts';
import { countedWithdrawal, strip } from './row.ts';
import { payOut } from './pay-out.ts';

/** The sandbox's made-up transaction id of a crypto withdrawal: 32 random bytes in hex, like a chain's. */
export const madeUpTxid = (): string => randomBytes(32).toString('hex');

/**
 * Sends an approved withdrawal to a crypto address at the venue, when the venue sends them itself
 * (docs/market.md "Crypto withdrawals at the venue"), and records how it ended: completed with the
 * chain's txid as `txid` and `payoutReference` (hold consumed, the amount leaves the books, the venue's
 * network fee booked as the platform's cost in an entry of its own), or failed (hold released). Never
 * inside a database transaction: the venue is called between two of them, its row written `sending`
 * first. Null while the outcome is not known yet (asked again by recoverCryptoWithdrawals), and when
 * there is nothing to send here (a bank account, the desk's venue, not approved).
 */
export async function sendCryptoWithdrawal(d: UseCaseDeps, actor: string, id: string): Promise<WithdrawalRow | null> {
  const payouts = d.venue.cryptoPayouts;
  if (!payouts) return null;
  const t = await d.store.withdrawals.cryptoTarget(id);
  if (!t || t.state !== 'approved') return null;
  const outcome = await payouts.send({
    withdrawalId: id,
    assetSymbol: t.assetSymbol,
    assetDecimals: t.assetDecimals,
    amount: t.amount,
    network: t.network,
    address: t.address,
    memo: t.memo,
  });
  if (outcome === null) return null;
  const at = d.clock.now();
  const settled = await d.store.uow.run(async (tx) => {
    if (outcome.completed) {
      const w = await d.store.withdrawals.settle(tx, id, 'completed', at, { payoutReference: outcome.txid, txid: outcome.txid });
      if (!w) return null;
      await payOut(d, tx, at, w);
      await bookNetworkFee(d, tx, at, id, t.assetSymbol, outcome.feeMinor);
      await d.store.audit.record(tx, d.ids, at, {
        actor,
        action: 'withdrawal.payout',
        subjectType: 'withdrawal',
        subjectId: id,
        before: { state: 'approved' },
        after: {
          ...withdrawalAudit(w),
          venue: outcome.venue,
          venueReference: outcome.venueReference,
          feeMinor: outcome.feeMinor.toString(),
        },
      });
      return strip(w);
    }
    const w = await d.store.withdrawals.settle(tx, id, 'failed', at, { reason: outcome.reason });
    if (!w) return null;
    await d.store.holds.release(tx, d.ids, at, w.holdId, 'withdrawal_release', id);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'withdrawal.fail',
      subjectType: 'withdrawal',
      subjectId: id,
      before: { state: 'approved' },
      after: withdrawalAudit(w),
    });
    return strip(w);
  });
  return settled && countedWithdrawal(d, settled);
}

/**
 * The venue's network fee: it left the platform's account at the venue with the withdrawal, and is the
 * platform's cost (negative revenue), in an entry of its own touching no organization account.
 */
async function bookNetworkFee(d: UseCaseDeps, tx: Tx, at: Date, id: string, assetSymbol: string, fee: bigint): Promise<void> {
  const entry = venueFeeEntry(id, [{ assetSymbol, amountMinor: fee }]);
  if (!entry) return;
  await d.store.ledger.post(tx, d.ids.next('je'), entry, at);
  await d.venue.fundsMoved(tx, assetSymbol, -fee);
}

/**
 * Follows every approved withdrawal to a crypto address at the venue: sent and processing ones until
 * the venue says how they ended; one whose sending a crash interrupted is looked up by its id (never
 * sent twice). One that cannot be followed now does not hold back the others.
 */
export async function recoverCryptoWithdrawals(
  d: UseCaseDeps,
  onError: (withdrawalId: string, err: unknown) => void = () => {},
): Promise<WithdrawalRow[]> {
  if (!d.venue.cryptoPayouts) return [];
  const out: WithdrawalRow[] = [];
  for (const id of await d.store.withdrawals.approvedCrypto()) {
    try {
      const w = await sendCryptoWithdrawal(d, 'system:venue', id);
      if (w) out.push(w);
    } catch (err) {
      onError(id, err);
    }
  }
  return out;
}
