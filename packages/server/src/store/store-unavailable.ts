/**
 * Whether an error means the store could not be reached or is not the primary any more: no connection
 * could be opened, the connection broke, the server is shutting down or starting up, or it is a standby
 * (a read-only transaction). The request cannot have been answered from the store; whether a write that
 * was being committed when the connection broke took effect is unknown, so its Idempotency-Key is kept.
 */
export class StoreUnavailableError extends Error {
  readonly code = 'store.unavailable';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`no primary database answers: ${detail}`, options);
  }
}

/** How long a client is told to wait before retrying (Retry-After, seconds): about one failover's detection. */
export const STORE_RETRY_AFTER_S = 2;

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** 08*: connection exception; 57P01/02/03: admin shutdown, crash shutdown, cannot connect now; 25006: read-only transaction (a standby); 53300: too many connections. */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '25006', '53300']);
/** node-postgres reports a broken connection in plain words, without a code. */
const MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect|Connection terminated due to connection timeout|Cannot use a pool after calling end)/;

export function isStoreUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof StoreUnavailableError) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || SQLSTATES.has(code) || /^08...$/.test(code))) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
  }
  return false;
}
