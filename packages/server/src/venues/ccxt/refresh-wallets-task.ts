import type { BackgroundTask } from '../../background.ts';
import { CcxtVenue } from './ccxt-venue.ts';

/**
 * The venue account's deposit addresses may change (the spec's wallets "belong to an account that the
 * platform uses and that may change"): venue wallets are read again every minute and follow the venue.
 */
export const refreshVenueWalletsTask: BackgroundTask = {
  name: 'refresh-venue-wallets',
  everyMs: 60_000,
  run: async (deps) => {
    const venue = deps.venue;
    if (!(venue instanceof CcxtVenue)) return;
    for (const w of await deps.store.wallets.venueWallets()) {
      try {
        const address = await venue.depositAddress(w.assetSymbol, w.network);
        if (await deps.store.wallets.refreshVenueAddress(w.assetSymbol, w.network, address)) {
          deps.logger?.warn({ asset: w.assetSymbol, network: w.network }, 'the venue changed a deposit address: the wallet follows it');
        }
      } catch (err) {
        deps.logger?.warn({ err, asset: w.assetSymbol }, 'could not read a venue deposit address; the wallet keeps its last one');
      }
    }
  },
};
