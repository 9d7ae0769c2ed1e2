import type { Clock, Market } from '../domain/ports.ts';
import type { Store } from '../store/index.ts';
import { SimulatedVenue } from './simulated-venue.ts';

/** The market of a running app: the injected one, or the simulated venue over the app's store (sandbox default). */
export function marketOf(deps: { market?: Market | undefined; store: Store; clock: Clock }): Market {
  return deps.market ?? new SimulatedVenue(deps.store.db, deps.store.marketPairs, deps.clock);
}
