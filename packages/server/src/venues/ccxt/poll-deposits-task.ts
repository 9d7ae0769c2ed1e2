import type { BackgroundTask } from '../../background.ts';
import { CcxtVenue } from './ccxt-venue.ts';
import { DEPOSIT_LOOKBACK_MS, recordVenueDeposits } from './record-venue-deposits.ts';

/** Reads the venue's deposit history every 10 s, so a completed deposit is recorded within 30 s (CONTRACT §11). */
export const pollVenueDepositsTask: BackgroundTask = {
  name: 'poll-venue-deposits',
  everyMs: 10_000,
  run: async (deps) => {
    if (!(deps.venue instanceof CcxtVenue)) return;
    // An unreadable history was logged and counted by the venue already; the next pass reads it again.
    const history = await deps.venue.deposits(deps.clock.now().getTime() - DEPOSIT_LOOKBACK_MS).catch(() => null);
    if (!history) return;
    const n = await recordVenueDeposits(deps, history);
    if (n > 0) deps.logger?.info({ recorded: n }, 'venue deposits recorded as arrivals');
  },
};
