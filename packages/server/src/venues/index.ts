import type { Config } from '../config.ts';
import type { Clock } from '../domain/ports.ts';
import type { Store } from '../store/index.ts';
import type { Venue } from '../usecases/ports.ts';
import { DeskVenue } from './desk-venue.ts';
import { SimulatedVenue } from './simulated-venue.ts';

/**
 * The venue of an instance, chosen once (main.ts; tests through the app factory): sandbox runs the
 * simulated venue over the store ("market off", CONTRACT §1); production, the desk (CONTRACT §9).
 */
export function venueFor(mode: Config['mode'], store: Store, clock: Clock): Venue {
  return mode === 'sandbox' ? new SimulatedVenue(store.db, store.marketPairs, clock) : new DeskVenue(store.marketPairs);
}
