import { ccxtModule } from './ccxt-module.ts';

/**
 * What a venue error means for an order sent to it (docs/market.md):
 * - `not_found`: the venue has no order with that client id (Binance -2013);
 * - `refused`: the venue answered that it will not execute it (insufficient balance, invalid order,
 *   market closed): nothing traded;
 * - `unknown`: no answer, a 5xx, a timeout, Binance -1006/-1007, or anything not understood: the order
 *   may or may not exist, so it is looked up, never simply sent again.
 * Credentials are never part of what is kept: only the venue's message.
 */
export type VenueErrorKind = 'not_found' | 'refused' | 'unknown';

export function classifyVenueError(e: unknown): { kind: VenueErrorKind; reason: string } {
  const reason = venueMessage(e);
  const ccxt = ccxtModule();
  if (e instanceof ccxt.OrderNotFound) return { kind: 'not_found', reason };
  // Network trouble, timeouts (Binance -1007), the exchange unavailable or failing (5xx, -1001, -1006).
  if (e instanceof ccxt.NetworkError || e instanceof ccxt.OperationFailed) return { kind: 'unknown', reason };
  // The account's credentials or permissions: nothing was placed, and the order must wait for the
  // operator to fix them rather than fail the client.
  if (e instanceof ccxt.AuthenticationError || e instanceof ccxt.AccountSuspended) return { kind: 'unknown', reason };
  if (
    e instanceof ccxt.InsufficientFunds ||
    e instanceof ccxt.InvalidOrder ||
    e instanceof ccxt.BadSymbol ||
    e instanceof ccxt.MarketClosed ||
    e instanceof ccxt.BadRequest ||
    e instanceof ccxt.OperationRejected
  )
    return { kind: 'refused', reason };
  return { kind: 'unknown', reason };
}

/** The venue's own message: CCXT writes "<exchange> <body>", the body being the venue's JSON or its msg. */
export function venueMessage(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const body = text.replace(/^[a-z0-9]+ /, '');
  try {
    const j = JSON.parse(body) as Record<string, unknown>;
    // Binance {code, msg}; OKX {code, msg, data: [{sCode, sMsg}]}; Kraken {error: [...]}; Coinbase {error, message} or {error_response}.
    const first = Array.isArray(j['data']) ? (j['data'][0] as Record<string, unknown> | undefined) : undefined;
    if (first && typeof first['sMsg'] === 'string' && first['sMsg'] !== '') return `${first['sMsg']} (${String(first['sCode'])})`;
    if (typeof j['msg'] === 'string' && j['msg'] !== '')
      return j['code'] !== undefined && j['code'] !== '' ? `${j['msg']} (${String(j['code'])})` : j['msg'];
    if (Array.isArray(j['error']) && j['error'].length > 0) return j['error'].map(String).join('; ');
    const cb = (j['error_response'] ?? j) as Record<string, unknown>;
    if (typeof cb['message'] === 'string' && cb['message'] !== '')
      return typeof cb['error'] === 'string' ? `${cb['message']} (${cb['error']})` : cb['message'];
  } catch {
    /* not JSON: the message as CCXT wrote it */
  }
  return body.slice(0, 300);
}

/** A metric label for a venue error. */
export function venueErrorLabel(e: unknown): string {
  return e instanceof Error ? e.constructor.name : 'Unknown';
}
