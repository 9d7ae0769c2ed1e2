import type { ExchangeAdapter } from './adapter.ts';
import { binance } from './binance.ts';
import { coinbase } from './coinbase.ts';
import { kraken } from './kraken.ts';
import { okx } from './okx.ts';

/** The exchanges whose answers Cambio reads exactly, each through its own module (docs/market.md "Exchanges"). */
const ADAPTERS: ReadonlyMap<string, ExchangeAdapter> = new Map([binance, kraken, okx, coinbase].map((a) => [a.id, a]));

export function adapterFor(exchangeId: string): ExchangeAdapter {
  const a = ADAPTERS.get(exchangeId);
  if (!a) throw new Error(`Cambio has no module reading ${exchangeId}'s answers (venues/ccxt/adapters.ts)`);
  return a;
}
