import type { Exchange } from 'ccxt';
import { ccxtModule } from './ccxt-module.ts';

/** How a CCXT exchange is reached: its id, the account's credentials, and an origin replacing its REST API's. */
export interface ExchangeSettings {
  id: string;
  apiKey: string | undefined;
  secret: string | undefined;
  /** The passphrase some exchanges sign with besides the secret (OKX), CAMBIO_VENUE_PASSWORD. */
  password?: string | undefined;
  url: string | undefined;
  recvWindowMs: number;
}

/**
 * Builds the CCXT exchange, once. `url` (CAMBIO_VENUE_URL) replaces the origin of every URL in CCXT's
 * `urls.api`, paths kept, so a testnet or a loopback double answers instead. Spot only: the markets
 * of other kinds, the currencies (a signed wallet call) and margin pairs are never loaded. The
 * credentials live only inside the exchange object; nothing here logs them.
 */
export function makeExchange(s: ExchangeSettings): Exchange {
  const Ctor = (ccxtModule() as unknown as Record<string, new (config: object) => Exchange>)[s.id];
  if (typeof Ctor !== 'function') throw new Error(`CCXT has no exchange "${s.id}"`);
  const ex = new Ctor({
    apiKey: s.apiKey,
    secret: s.secret,
    ...(s.password !== undefined ? { password: s.password } : {}),
    enableRateLimit: true,
    timeout: 10_000,
    options: {
      defaultType: 'spot',
      fetchMarkets: { types: ['spot'] },
      fetchCurrencies: false,
      fetchMargins: false,
      recvWindow: s.recvWindowMs,
      adjustForTimeDifference: false,
      warnOnFetchOpenOrdersWithoutSymbol: false,
    },
  });
  // Some exchanges write their host as a placeholder (OKX: https://{hostname}): it is filled in first.
  const hostname = String((ex as unknown as { hostname?: unknown }).hostname ?? '');
  if (s.url) ex.urls['api'] = rewriteOrigins(fillHostname(ex.urls['api'], hostname), new URL(s.url).origin);
  return ex;
}

/** Every URL string in CCXT's (possibly nested) `urls.api`, with its origin replaced. */
export function rewriteOrigins(api: unknown, origin: string): never {
  if (typeof api === 'string') {
    const u = new URL(api);
    return `${origin}${u.pathname}${u.search}`.replace(/\/$/, '') as never;
  }
  if (api && typeof api === 'object') {
    return Object.fromEntries(Object.entries(api).map(([k, v]) => [k, rewriteOrigins(v, origin)])) as never;
  }
  return api as never;
}

function fillHostname(api: unknown, hostname: string): unknown {
  if (typeof api === 'string') return api.replace('{hostname}', hostname);
  if (api && typeof api === 'object') return Object.fromEntries(Object.entries(api).map(([k, v]) => [k, fillHostname(v, hostname)]));
  return api;
}
