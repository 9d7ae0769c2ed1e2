import type { Config } from '../config.ts';
import type { Clock, Market } from '../domain/ports.ts';
import type { Store } from '../store/index.ts';
import { SimulatedVenue } from './simulated-venue.ts';
import { UnconnectedVenue } from './unconnected-venue.ts';

/**
 * The market of a running app: the injected one; else, in sandbox, the simulated venue over the
 * app's store ("market off", CONTRACT §1); in production, no venue until an adapter is connected.
 */
export function marketOf(deps: { market?: Market | undefined; store: Store; clock: Clock; config: Pick<Config, 'mode'> }): Market {
  if (deps.market) return deps.market;
  return deps.config.mode === 'sandbox'
    ? new SimulatedVenue(deps.store.db, deps.store.marketPairs, deps.clock)
    : new UnconnectedVenue(deps.store.marketPairs);
}
