import { CambioError, ConfigurationError, ConnectionError, IdempotencyInProgressError, LostResponseError, TimeoutError } from './errors.ts';

/**
 * Retries exactly as the spec's "Status codes" table says: 408/429/502/503/504 with exponential
 * backoff, full jitter and a ceiling; 500 once; never a 4xx. `Retry-After` is never cut short: a
 * wait it asks for beyond the ceiling ends the retries instead. Network failures and timeouts are
 * retried like a 503, except that a creating call whose response never arrived is not blindly
 * re-sent: its plan decides (see `runWithRetry`).
 */
export interface RetryOptions {
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** Base of the exponential backoff. Default 250 ms. */
  baseDelayMs?: number;
  /**
   * Ceiling of any single wait. Default 8000 ms. A `Retry-After` longer than this is not shortened:
   * the SDK stops and throws the error (its `retryAfterMs` says how long the server asked for).
   */
  maxDelayMs?: number;
  /** Injectable for tests; default Math.random. */
  random?: () => number;
  /** Injectable for tests; default setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

export const RETRY_DEFAULTS = { maxRetries: 3, baseDelayMs: 250, maxDelayMs: 8000 } as const;

export type RetryAdvice = 'never' | 'backoff' | 'once';

/**
 * The spec's table, plus: no response at all is transient; a request that could not be built is not;
 * 409 idempotency.in_progress is transient.
 */
export function retryAdvice(err: CambioError): RetryAdvice {
  if (err instanceof ConfigurationError || err instanceof LostResponseError) return 'never';
  if (err instanceof ConnectionError || err instanceof TimeoutError) return 'backoff';
  // The first attempt with the same Idempotency-Key is still running: its answer comes to a later retry.
  if (err instanceof IdempotencyInProgressError) return 'backoff';
  if ([408, 429, 502, 503, 504].includes(err.status)) return 'backoff';
  if (err.status >= 500) return 'once';
  return 'never';
}

/**
 * True when the request may have been applied although no success arrived: a timeout, a connection
 * that broke after sending, or a 500/502/504 (a gateway may have given up on a request the service
 * finished). 408, 429 and 503 say the service did not take the request.
 */
export function outcomeUnknown(err: CambioError): boolean {
  if (err instanceof LostResponseError) return true;
  if (err instanceof TimeoutError) return true;
  if (err instanceof ConnectionError) return !notSent(err.cause);
  if (err instanceof ConfigurationError) return false;
  return err.status === 500 || err.status === 502 || err.status === 504;
}

/** Connection refused or the name did not resolve: nothing reached the server. */
function notSent(cause: unknown): boolean {
  const code =
    (cause as { cause?: { code?: string }; code?: string } | undefined)?.cause?.code ?? (cause as { code?: string } | undefined)?.code;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
}

/** Full jitter: a uniform wait in [0, min(ceiling, base · 2^n)). `n` counts retries from 0. */
export function backoffDelay(n: number, o: { baseDelayMs: number; maxDelayMs: number; random: () => number }): number {
  const cap = Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** n);
  return Math.floor(o.random() * cap);
}

/** `Retry-After`: seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^[0-9]+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}

export type RetryEvent =
  | { type: 'retry'; attempt: number; delayMs: number; code: string; status: number; traceId: string | null }
  | { type: 'lost_response'; attempt: number; code: string; status: number }
  | { type: 'found_after_timeout'; attempt: number }
  | { type: 'resending'; attempt: number }
  | { type: 'lost_response_unresolved'; attempt: number };

export interface RetryPlan<T> {
  attempt: (n: number) => Promise<T>;
  /**
   * Whether a request whose outcome is unknown may be sent again without reading first. Reads, quotes
   * and calls that protect themselves (a repeat is a 409 or 410): yes. A withdrawal: no, it reads first.
   */
  resendWhenUnknown: boolean;
  /**
   * Looks for what a lost attempt created; undefined when nothing is found. Run before each resend
   * when `resendWhenUnknown` is false; after a lost attempt, when a later attempt is refused (4xx: the
   * refusal may be caused by what the lost attempt did); and one final time when the retries end. A
   * creating call without it is never re-sent after a lost response.
   */
  readBack?: (lost: CambioError) => Promise<T | undefined>;
  /** `withdrawal`, `order`…: names what was created, in a LostResponseError's message. */
  what?: string;
  onEvent?: ((e: RetryEvent) => void) | undefined;
}

export interface RetryResult<T> {
  value: T;
  attempts: number;
  /** Some attempt's response never arrived (or was a 500/502/504). */
  lost: boolean;
  /** The value was found by reading after a lost response; nothing was re-sent after that. */
  found: boolean;
}

/** `403 auth.scope_missing: reading back needs portal:read`; never a header, only status and code. */
function describe(e: unknown): string {
  if (!(e instanceof CambioError)) return e instanceof Error ? e.message : String(e);
  return `${e.status} ${e.code}${e.status === 403 ? ': reading back needs portal:read' : ''}`;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function runWithRetry<T>(plan: RetryPlan<T>, options: RetryOptions = {}): Promise<RetryResult<T>> {
  const o = {
    maxRetries: options.maxRetries ?? RETRY_DEFAULTS.maxRetries,
    baseDelayMs: options.baseDelayMs ?? RETRY_DEFAULTS.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? defaultSleep,
  };
  // A call that may create something: re-sending it blindly is not the same as repeating a read.
  const creates = !plan.resendWhenUnknown || plan.readBack !== undefined;
  let lost: CambioError | null = null;
  let usedOnce = false;

  /** Reads back what a lost attempt created; a failed read leaves the outcome unknown. */
  const readBack = async (last: CambioError, n: number): Promise<RetryResult<T> | undefined> => {
    let v: T | undefined;
    try {
      v = await plan.readBack!(lost ?? last);
    } catch (readError) {
      throw unresolved(last, readError, n);
    }
    if (v === undefined) return undefined;
    plan.onEvent?.({ type: 'found_after_timeout', attempt: n });
    return { value: v, attempts: n + 1, lost: true, found: true };
  };
  const unresolved = (last: CambioError, readError: unknown, n: number): LostResponseError => {
    plan.onEvent?.({ type: 'lost_response_unresolved', attempt: n });
    const first = lost ?? last;
    const what = plan.what ?? `${first.method ?? ''} ${first.path ?? ''}`.trim();
    const why =
      readError === undefined
        ? plan.readBack
          ? 'and reading the list found nothing of it'
          : 'and there is no safe way to send it again'
        : `and reading it back failed too (${describe(readError)})`;
    return new LostResponseError({
      status: last.status,
      code: 'sdk.lost_response_unresolved',
      traceId: last.traceId,
      method: first.method,
      path: first.path,
      message: `the ${what} got no answer (${first.code}) ${why}; it may or may not have been created: read the list before trying again`,
      cause: last,
      readBackError: readError,
    });
  };

  for (let n = 0; ; n++) {
    try {
      const value = await plan.attempt(n);
      return { value, attempts: n + 1, lost: lost !== null, found: false };
    } catch (e) {
      if (!(e instanceof CambioError)) throw e;
      const advice = retryAdvice(e);
      const unknown = outcomeUnknown(e);
      if (unknown) {
        lost ??= e; // the first lost attempt is the one a read-back looks for
        plan.onEvent?.({ type: 'lost_response', attempt: n, code: String(e.code), status: e.status });
      }
      if (advice === 'never') {
        // A refusal after a lost attempt may be caused by it (already used, already registered, the
        // balance it held): look for what it created before reporting the refusal.
        if (lost && plan.readBack) {
          const found = await readBack(e, n);
          if (found) return found;
        }
        throw e;
      }
      const retryAfterTooLong = e.retryAfterMs !== null && e.retryAfterMs > o.maxDelayMs;
      const exhausted = n >= o.maxRetries || (advice === 'once' && usedOnce) || retryAfterTooLong;
      const mayResend = !unknown || plan.resendWhenUnknown || plan.readBack !== undefined;
      if (exhausted || !mayResend) {
        if (lost && plan.readBack) {
          const found = await readBack(e, n);
          if (found) return found;
        }
        if (lost && creates) throw unresolved(e, undefined, n);
        throw e;
      }
      if (advice === 'once') usedOnce = true;
      // Never shorter than Retry-After (a longer one ended the retries above).
      const delayMs = e.retryAfterMs !== null ? e.retryAfterMs : backoffDelay(n, o);
      plan.onEvent?.({ type: 'retry', attempt: n + 1, delayMs, code: String(e.code), status: e.status, traceId: e.traceId });
      await o.sleep(delayMs);
      if (unknown && !plan.resendWhenUnknown && plan.readBack) {
        const found = await readBack(e, n);
        if (found) return found;
        plan.onEvent?.({ type: 'resending', attempt: n + 1 });
      }
    }
  }
}
