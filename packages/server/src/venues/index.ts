import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Clock } from '../domain/ports.ts';
import type { Store } from '../store/index.ts';
import type { Venue } from '../usecases/ports.ts';
import { CcxtVenue, type CcxtVenuePorts } from './ccxt/ccxt-venue.ts';
import { makeExchange } from './ccxt/exchange.ts';
import { DeskVenue } from './desk-venue.ts';
import { SimulatedVenue } from './simulated-venue.ts';

/** Binance's recvWindow on every signed request (its default). */
export const RECV_WINDOW_MS = 5000;

/**
 * The venue of an instance, chosen once (main.ts; tests through the app factory): sandbox runs the
 * simulated venue over the store ("market off", docs/production.md); production, the desk (docs/design/money-and-states.md) or an
 * exchange through CCXT (CAMBIO_VENUE=ccxt:<id>, docs/market.md).
 */
export function venueFor(config: Pick<Config, 'mode' | 'venue' | 'recoveryGraceMs'>, store: Store, clock: Clock, logger?: Logger): Venue {
  if (config.mode === 'sandbox') return new SimulatedVenue(store.db, store.marketPairs, clock);
  const v = config.venue;
  if (v.kind === 'desk') return new DeskVenue(store.marketPairs);
  const ex = makeExchange({
    id: v.exchange,
    apiKey: v.apiKey.reveal(),
    secret: v.secret.reveal(),
    password: v.password?.reveal(),
    url: v.url,
    recvWindowMs: RECV_WINDOW_MS,
  });
  // Public market data on a client of its own, without credentials: CCXT paces each client's requests apart.
  const marketData = makeExchange({ id: v.exchange, apiKey: undefined, secret: undefined, url: v.url, recvWindowMs: RECV_WINDOW_MS });
  return new CcxtVenue(ex, ccxtPortsOf(store), clock, {
    recvWindowMs: RECV_WINDOW_MS,
    leaseMs: config.recoveryGraceMs,
    logger,
    marketData,
  });
}

/** The narrow ports the CCXT venue works through, from the store. */
export function ccxtPortsOf(store: Store): CcxtVenuePorts {
  return { pairs: store.marketPairs, assets: store.marketAssets, orders: store.venueOrders, withdrawals: store.venueWithdrawals };
}
