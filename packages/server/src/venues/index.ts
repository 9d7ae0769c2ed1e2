import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Clock } from '../domain/ports.ts';
import type { Store } from '../store/index.ts';
import type { Venue } from '../usecases/ports.ts';
import { CcxtVenue, type CcxtVenuePorts } from './ccxt/ccxt-venue.ts';
import { makeExchange } from './ccxt/exchange.ts';
import { DeskVenue } from './desk-venue.ts';
import { SimulatedVenue } from './simulated-venue.ts';
import { VenueSet } from './venue-set.ts';

/** Binance's recvWindow on every signed request (its default). */
export const RECV_WINDOW_MS = 5000;

/**
 * The venue of an instance, chosen once (main.ts; tests through the app factory): sandbox runs the
 * simulated venue over the store ("market off", docs/production.md); production, the desk (docs/design/money-and-states.md) or an
 * exchange through CCXT, one account (CAMBIO_VENUE=ccxt:<id>) or several (CAMBIO_VENUES), docs/market.md.
 */
export function venueFor(config: Pick<Config, 'mode' | 'venue' | 'recoveryGraceMs'>, store: Store, clock: Clock, logger?: Logger): Venue {
  if (config.mode === 'sandbox') return new SimulatedVenue(store.db, store.marketPairs, clock);
  const v = config.venue;
  if (v.kind === 'desk') return new DeskVenue(store.marketPairs);
  const members = v.venues.map((a) => {
    const ex = makeExchange({
      id: a.exchange,
      apiKey: a.apiKey.reveal(),
      secret: a.secret.reveal(),
      password: a.password?.reveal(),
      url: a.url,
      recvWindowMs: RECV_WINDOW_MS,
    });
    // Public market data on a client of its own, without credentials: CCXT paces each client's requests apart.
    const marketData = makeExchange({ id: a.exchange, apiKey: undefined, secret: undefined, url: a.url, recvWindowMs: RECV_WINDOW_MS });
    const venue = new CcxtVenue(ex, ccxtPortsOf(store), clock, {
      name: a.name,
      recvWindowMs: RECV_WINDOW_MS,
      leaseMs: config.recoveryGraceMs,
      logger,
      marketData,
    });
    return { name: a.name, venue };
  });
  // One account or several, the same path: each quote priced at every venue, each order executed at its own (docs/market.md).
  return new VenueSet(members, store.venueOrders);
}

/** The narrow ports the CCXT venue works through, from the store. */
export function ccxtPortsOf(store: Store): CcxtVenuePorts {
  return { pairs: store.marketPairs, assets: store.marketAssets, orders: store.venueOrders, withdrawals: store.venueWithdrawals };
}
