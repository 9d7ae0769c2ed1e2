import { DomainError } from '../../domain/errors.ts';
import { fromMinor, sub, truncateToMinor } from '../../domain/market/decimal-text.ts';
import type { UseCaseDeps, VenueDeposit } from '../ports.ts';
import { recordArrival } from './record-arrival.ts';

/** How far back the venue's deposit history is read on each pass. */
export const DEPOSIT_LOOKBACK_MS = 7 * 24 * 3_600_000;

/**
 * Records the venue account's completed deposits as arrivals (docs/market.md): once per txid, matched to
 * an open declaration by its exact amount as any arrival is. A pending deposit is not recorded yet;
 * one of an asset not listed at Cambio is left alone; an amount with more decimals than the asset is
 * recorded truncated and waits unattributed for a person. Returns the arrivals recorded now.
 */
export async function recordVenueDeposits(d: UseCaseDeps, deposits: VenueDeposit[]): Promise<number> {
  const done = deposits.filter((x) => x.completed && x.txid !== '');
  if (done.length === 0) return 0;
  const known = await d.store.deposits.recordedTxids(done.map((x) => x.txid));
  const assets = await d.store.marketAssets.decimalsBySymbol();
  let recorded = 0;
  for (const x of done) {
    const decimals = assets.get(x.coin);
    if (known.has(x.txid) || decimals === undefined) continue;
    const amount = truncateToMinor(x.amount, decimals);
    const exact = sub(x.amount, fromMinor(amount, decimals)).num === 0n;
    if (amount <= 0n) continue;
    try {
      await recordArrival(d, 'system:venue-deposits', {
        assetSymbol: x.coin,
        network: x.network,
        amount,
        txid: x.txid,
        unmatchable: !exact,
      });
      recorded += 1;
    } catch (err) {
      // Another instance recorded it first: once per txid is kept by the store.
      if (!(err instanceof DomainError && err.code === 'deposits.txid_already_recorded')) throw err;
    }
  }
  return recorded;
}
