import { expiresInSeconds, type Declaration } from '../../domain/deposits/declaration.ts';
import { formatDecimal } from '../../domain/money.ts';
import type { Deposit } from '../../store/deposits-store.ts';

/** An arrival as its organization sees it (the operator's view adds the organization). */
export const depositWire = (d: Deposit) => ({
  id: d.id,
  state: d.state,
  money: { assetSymbol: d.assetSymbol, assetDecimals: d.assetDecimals, amountMinor: d.amount.toString() },
  txid: d.txid,
  network: d.network,
  declarationId: d.declarationId,
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
});

/** The wire form (spec: Deposit declaration), with the seconds left computed at response time. */
export function declarationWire(d: Declaration, now: Date) {
  return {
    id: d.id,
    reference: d.reference,
    state: d.state,
    assetSymbol: d.assetSymbol,
    assetDecimals: d.assetDecimals,
    declaredAmountMinor: d.declaredAmount.toString(),
    expectedAmountMinor: d.expectedAmount.toString(),
    expectedAmount: formatDecimal(d.expectedAmount, d.assetDecimals),
    network: d.network,
    address: d.address,
    expiresAt: d.expiresAt.toISOString(),
    expiresInSeconds: expiresInSeconds(d.expiresAt, now),
  };
}
