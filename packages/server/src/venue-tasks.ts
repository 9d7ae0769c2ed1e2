import type { BackgroundTask } from './background-task.ts';
import { recordVenueDeposits, DEPOSIT_LOOKBACK_MS } from './usecases/deposits/record-venue-deposits.ts';
import { followVenueAddress } from './usecases/wallets/follow-venue-address.ts';

// The background work of a venue with market data or custody (docs/market.md); each task does nothing under a venue without it.
/**
 * Keeps the books of the venue markets quoted in the last minute fresh between quotes (docs/market.md), so a
 * quote rarely waits for the venue. Read over REST, every second: under the default maxBookAgeMs of 2 s.
 */
export const pollVenueBooksTask: BackgroundTask = {
  name: 'poll-venue-books',
  everyMs: 1_000,
  run: async (deps) => {
    await deps.venue.marketData?.keepFresh(60_000);
  },
};

/** Reads the venue's deposit history every 10 s, so a completed deposit is recorded within 30 s (docs/market.md). */
export const pollVenueDepositsTask: BackgroundTask = {
  name: 'poll-venue-deposits',
  everyMs: 10_000,
  run: async (deps) => {
    const custody = deps.venue.custody;
    if (!custody) return;
    // An unreadable history was logged and counted by the venue already; the next pass reads it again.
    const history = await custody.deposits(deps.clock.now().getTime() - DEPOSIT_LOOKBACK_MS).catch(() => null);
    if (!history) return;
    const n = await recordVenueDeposits(deps, history);
    if (n > 0) deps.logger?.info({ recorded: n }, 'venue deposits recorded as arrivals');
  },
};

/**
 * The venue account's deposit addresses may change (the spec's wallets "belong to an account that the
 * platform uses and that may change"): venue wallets are read again every minute and follow the venue.
 */
export const refreshVenueWalletsTask: BackgroundTask = {
  name: 'refresh-venue-wallets',
  everyMs: 60_000,
  run: async (deps) => {
    const custody = deps.venue.custody;
    if (!custody) return;
    for (const w of await deps.store.wallets.venueWallets()) {
      try {
        const address = await custody.depositAddress(w.assetSymbol, w.network);
        if (await followVenueAddress(deps, w.assetSymbol, w.network, address)) {
          deps.logger?.warn({ asset: w.assetSymbol, network: w.network }, 'the venue changed a deposit address: the wallet follows it');
        }
      } catch (err) {
        deps.logger?.warn({ err, asset: w.assetSymbol }, 'could not read a venue deposit address; the wallet keeps its last one');
      }
    }
  },
};
