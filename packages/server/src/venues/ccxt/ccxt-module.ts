import { createRequire } from 'node:module';
import type ccxtDefault from 'ccxt';

export type CcxtModule = typeof ccxtDefault;

let loaded: CcxtModule | undefined;

/**
 * CCXT, loaded the first time an exchange is built or one of its errors is read. It carries every
 * exchange it knows and takes most of a second to load, and only an instance trading at an exchange
 * needs it: sandbox and desk instances never load it. The CommonJS build is required so that building an
 * exchange stays synchronous; the exchange and the error classes it throws come from that same module.
 */
export function ccxtModule(): CcxtModule {
  loaded ??= createRequire(import.meta.url)('ccxt') as CcxtModule;
  return loaded;
}
