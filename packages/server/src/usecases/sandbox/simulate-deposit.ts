import { randomBytes } from 'node:crypto';
import { DomainError } from '../../domain/errors.ts';
import { recordArrival } from '../deposits/record-arrival.ts';
import type { UseCaseDeps } from '../ports.ts';
import type { Deposit } from '../repositories.ts';
import { SANDBOX_ACTOR } from './decide-magic.ts';

/**
 * Money arriving at the deposit wallet of an asset, simulated (docs/sandbox.md): recorded exactly as the
 * operator records an arrival (recordArrival), so a declaration of that exact amount is credited and
 * anything else waits unattributed. The network defaults to the wallet's; the txid, absent, is made up
 * (a txid is recorded once, so a repeat is 409). The audit names the member who simulated it.
 */
export async function simulateDeposit(
  d: UseCaseDeps,
  actor: string,
  r: { assetSymbol: string; network?: string | undefined; amount: bigint; txid?: string | undefined },
): Promise<Deposit> {
  if (r.amount <= 0n) throw new DomainError('request.invalid_amount', { field: 'amountMinor' });
  const wallet = await d.store.uow.run((tx) => d.store.declarations.walletOf(tx, r.assetSymbol));
  if (!wallet) throw new DomainError('deposits.asset_not_receivable', { asset: r.assetSymbol });
  return recordArrival(d, `${SANDBOX_ACTOR}:${actor}`, {
    assetSymbol: r.assetSymbol,
    network: r.network ?? wallet.network,
    amount: r.amount,
    txid: r.txid ?? `sandbox-${randomBytes(16).toString('hex')}`,
  });
}
