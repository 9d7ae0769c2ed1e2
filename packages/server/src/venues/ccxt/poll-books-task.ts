import type { BackgroundTask } from '../../background.ts';
import { CcxtVenue } from './ccxt-venue.ts';

/**
 * Keeps the books of the venue markets quoted in the last minute fresh between quotes (CONTRACT §11), so a
 * quote rarely waits for the venue. Read over REST, every second: under the default maxBookAgeMs of 2 s.
 */
export const pollVenueBooksTask: BackgroundTask = {
  name: 'poll-venue-books',
  everyMs: 1_000,
  run: async (deps) => {
    if (!(deps.venue instanceof CcxtVenue)) return;
    await deps.venue.books.poll(60_000);
  },
};
