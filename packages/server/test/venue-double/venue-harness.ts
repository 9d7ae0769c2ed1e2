import assert from 'node:assert/strict';
import { listAssets, makeHarness, SECRET, type Harness } from '../harness.ts';
import { DOUBLE_KEY, DOUBLE_SECRET, type BinanceDouble } from './binance-double.ts';

/** Production at the loopback Binance double through CCXT (docs/market.md). */
export function venueEnv(origin: string): Record<string, string> {
  return {
    CAMBIO_MODE: 'production',
    CAMBIO_SECRET: SECRET,
    CAMBIO_VENUE: 'ccxt:binance',
    CAMBIO_VENUE_URL: origin,
    CAMBIO_VENUE_API_KEY: DOUBLE_KEY,
    CAMBIO_VENUE_SECRET: DOUBLE_SECRET,
    CAMBIO_DESTINATION_COOLDOWN_MS: '0',
  };
}

// The book of the domain tests (book-pricing.test.ts), whose figures were worked with exact fractions.
export const BOOK = {
  bids: [
    ['65000.00', '0.5'],
    ['64990.00', '1.0'],
    ['64900.00', '2'],
  ] as Array<[string, string]>,
  asks: [
    ['65010.00', '0.5'],
    ['65020.00', '1.0'],
  ] as Array<[string, string]>,
};
export const SELL_PAIR = {
  source: 'venue',
  venueSymbol: 'BTC/USDT',
  spreadBps: 50,
  feeBps: 10,
  fixedFeeQuoteMinor: '100',
  minBaseMinor: '10000',
  maxBaseMinor: '500000000',
};
export const BUY_PAIR = {
  source: 'venue',
  venueSymbol: 'BTC/USDT',
  spreadBps: 50,
  feeBps: 10,
  fixedFeeQuoteMinor: '1000',
  minBaseMinor: '100',
  maxBaseMinor: '10000000',
};

export async function venueHarness(backend: 'pglite' | 'postgres', double: BinanceDouble): Promise<Harness> {
  const h = await makeHarness({ backend, manualClock: true, env: venueEnv(double.origin) });
  await listAssets(h, { BTC: 8, USDT: 2 });
  for (const [path, body] of [
    ['/market/pairs/BTC/USDT', SELL_PAIR],
    ['/market/pairs/USDT/BTC', BUY_PAIR],
  ] as const) {
    const r = await h.op('PUT', path, body);
    assert.equal(r.status, 200, r.raw);
  }
  return h;
}
