import { CambioError, ConnectionError, TimeoutError } from './errors.ts';

/**
 * Retries exactly as the spec's "Status codes" table says: 408/429/502/503/504 with exponential
 * backoff, full jitter and a ceiling (Retry-After honoured, capped by the ceiling); 500 once; never
 * a 4xx. Network failures and timeouts are retried like a 503, except that a creating call whose
 * response never arrived is not blindly re-sent: the caller's hooks decide (see `runWithRetry`).
 */
export interface RetryOptions {
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** Base of the exponential backoff. Default 250 ms. */
  baseDelayMs?: number;
  /** Ceiling of any single wait, Retry-After included. Default 8000 ms. */
  maxDelayMs?: number;
  /** Injectable for tests; default Math.random. */
  random?: () => number;
  /** Injectable for tests; default setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

export const RETRY_DEFAULTS = { maxRetries: 3, baseDelayMs: 250, maxDelayMs: 8000 } as const;

export type RetryAdvice = 'never' | 'backoff' | 'once';

/** The spec's table, plus: no response at all is transient. */
export function retryAdvice(err: CambioError): RetryAdvice {
  if (err instanceof ConnectionError || err instanceof TimeoutError) return 'backoff';
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
  if (err instanceof TimeoutError) return true;
  if (err instanceof ConnectionError) return !notSent(err.cause);
  return err.status === 500 || err.status === 502 || err.status === 504;
}

/** Connection refused or the name did not resolve: nothing reached the server. */
function notSent(cause: unknown): boolean {
  const code = (cause as { cause?: { code?: string }; code?: string } | undefined)?.cause?.code
    ?? (cause as { code?: string } | undefined)?.code;
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
  | { type: 'resending'; attempt: number };

export interface RetryPlan<T> {
  attempt: (n: number) => Promise<T>;
  /**
   * Whether a request whose outcome is unknown may be sent again at all. Reads: yes. Creating calls
   * pass `beforeResend` (look for what the lost attempt created) or rely on `afterRefusal`.
   */
  resendWhenUnknown: boolean;
  /** After a lost response and before sending again: return what the lost attempt created, if found. */
  beforeResend?: (lost: CambioError) => Promise<T | undefined>;
  /** A later attempt was refused (4xx): the refusal may prove the lost attempt went through. */
  afterRefusal?: (refusal: CambioError) => Promise<T | undefined>;
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

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function runWithRetry<T>(plan: RetryPlan<T>, options: RetryOptions = {}): Promise<RetryResult<T>> {
  const o = {
    maxRetries: options.maxRetries ?? RETRY_DEFAULTS.maxRetries,
    baseDelayMs: options.baseDelayMs ?? RETRY_DEFAULTS.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? defaultSleep,
  };
  let lost = false;
  let usedOnce = false;
  for (let n = 0; ; n++) {
    try {
      const value = await plan.attempt(n);
      return { value, attempts: n + 1, lost, found: false };
    } catch (e) {
      if (!(e instanceof CambioError)) throw e;
      if (lost && plan.afterRefusal && e.status >= 400 && e.status < 500 && retryAdvice(e) === 'never') {
        const v = await plan.afterRefusal(e);
        if (v !== undefined) {
          plan.onEvent?.({ type: 'found_after_timeout', attempt: n });
          return { value: v, attempts: n + 1, lost, found: true };
        }
        throw e;
      }
      const advice = retryAdvice(e);
      const unknown = outcomeUnknown(e);
      if (advice === 'never' || n >= o.maxRetries || (advice === 'once' && usedOnce)) throw e;
      if (unknown && !plan.resendWhenUnknown && !plan.beforeResend && !plan.afterRefusal) throw e;
      if (advice === 'once') usedOnce = true;
      const delayMs = e.retryAfterMs !== null ? Math.min(o.maxDelayMs, e.retryAfterMs) : backoffDelay(n, o);
      if (unknown) {
        lost = true;
        plan.onEvent?.({ type: 'lost_response', attempt: n, code: String(e.code), status: e.status });
      }
      plan.onEvent?.({ type: 'retry', attempt: n + 1, delayMs, code: String(e.code), status: e.status, traceId: e.traceId });
      await o.sleep(delayMs);
      if (unknown && plan.beforeResend) {
        const v = await plan.beforeResend(e);
        if (v !== undefined) {
          plan.onEvent?.({ type: 'found_after_timeout', attempt: n });
          return { value: v, attempts: n + 1, lost, found: true };
        }
        plan.onEvent?.({ type: 'resending', attempt: n + 1 });
      }
    }
  }
}
