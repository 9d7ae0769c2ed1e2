import type { Pagination } from '@cambio/contract';
import { ConfigurationError, ConnectionError, errorFromResponse, redact, ResponseParseError, TimeoutError } from './errors.ts';
import { AmountFormatError, parseJsonLossless, stringifyJson, toAmounts } from './json.ts';
import { parseRetryAfter, runWithRetry, type RetryEvent, type RetryOptions, type RetryPlan, type RetryResult } from './retry.ts';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** What the SDK reports while it works: retries, lost responses and how they were resolved. */
export type CambioEvent = RetryEvent & { method: string; path: string };

export interface TransportConfig {
  /** Root of the service, e.g. `https://api.example.com` (no `/api/v1`). */
  baseUrl: string;
  /** `/api/v1` or `/operator/v1`. */
  prefix: string;
  /** Credential headers. Never copied into an error. */
  authHeaders: Record<string, string>;
  /** Strings redacted from anything an error carries. */
  secrets: string[];
  lang?: string | undefined;
  fetch: FetchLike;
  timeoutMs: number;
  retry: RetryOptions;
  onEvent?: ((e: CambioEvent) => void) | undefined;
  /** In a browser with a session cookie: `same-origin` (the portal); absent: fetch's default. */
  credentials?: 'omit' | 'same-origin' | 'include' | undefined;
}

export type Query = Record<string, string | number | undefined>;

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Query;
  body?: unknown;
  /** Sent as `Idempotency-Key`; `request()` gives every POST a fresh one, the same on each of its retries. */
  idempotencyKey?: string;
  /** Extra headers of this call (e.g. an `idempotency-key` the caller chose: then none is generated). */
  headers?: Record<string, string>;
  /** A file, not the envelope (e.g. `text/csv`): a success answers its text as `data`; a failure is still the envelope. */
  accept?: string;
  /** With `accept`: a success answers the file's bytes (a `Uint8Array`, e.g. a PDF) instead of its text. */
  binary?: boolean;
}

export interface Reply<T> {
  data: T;
  pagination: Pagination | null;
  traceId: string | null;
  status: number;
  /** The server answered with the kept answer of an earlier attempt with the same Idempotency-Key. */
  replayed?: boolean;
}

interface WireEnvelope {
  success?: unknown;
  message?: unknown;
  data?: unknown;
  code?: unknown;
  timestamp?: unknown;
  traceId?: unknown;
  pagination?: unknown;
}

const USER_AGENT = 'cambio-sdk/0.1.0';

/** One HTTP exchange with the envelope, lossless amounts, a timeout, and the retry loop around it. */
export class Transport {
  readonly #cfg: TransportConfig;
  /** Server clock minus local clock, from the latest envelope `timestamp` (for read-back windows). */
  clockOffsetMs: number | null = null;

  constructor(cfg: TransportConfig) {
    this.#cfg = cfg;
  }

  get timeoutMs() {
    return this.#cfg.timeoutMs;
  }

  /** The same service and settings under another path prefix (e.g. the public `/transparency`). */
  withPrefix(prefix: string): Transport {
    return new Transport({ ...this.#cfg, prefix });
  }

  /** Local time corrected by what the server's clock said last. */
  serverNow(): number {
    return this.toServerTime(Date.now());
  }

  /** A moment of this machine's clock on the server's clock, as the latest answer reported it. */
  toServerTime(localMs: number): number {
    return localMs + (this.clockOffsetMs ?? 0);
  }

  /** A read, or any call that is safe to repeat: retried per the spec, even when a response was lost. */
  async get<T>(path: string, query?: Query): Promise<Reply<T>> {
    return (await this.request<T>({ method: 'GET', path, ...(query ? { query } : {}) }, { resendWhenUnknown: true })).value;
  }

  /** Any call with an explicit plan for responses that never arrived. */
  async request<T>(spec: RequestSpec, plan: Omit<RetryPlan<Reply<T>>, 'attempt' | 'onEvent'>): Promise<RetryResult<Reply<T>>> {
    const onEvent = this.#cfg.onEvent;
    // Every creating or deciding call carries a key of its own; every retry of it, the same key (docs/api-guide.md).
    const chosen = spec.idempotencyKey !== undefined || spec.headers?.['idempotency-key'] !== undefined;
    const keyed = spec.method === 'POST' && !chosen ? { ...spec, idempotencyKey: newIdempotencyKey() } : spec;
    return runWithRetry<Reply<T>>(
      {
        ...plan,
        attempt: () => this.send<T>(keyed),
        onEvent: onEvent ? (e) => onEvent({ ...e, method: spec.method, path: spec.path }) : undefined,
      },
      this.#cfg.retry,
    );
  }

  /**
   * A write carrying the caller's Idempotency-Key when one is given (a POST without one gets a fresh key,
   * see request()); re-sent after a lost answer only with `resendWhenUnknown` (then the key makes it act once).
   */
  async write<T>(spec: RequestSpec, opts: { idempotencyKey?: string | undefined } = {}, resendWhenUnknown = false): Promise<Reply<T>> {
    const keyed = opts.idempotencyKey !== undefined ? { ...spec, idempotencyKey: opts.idempotencyKey } : spec;
    return (await this.request<T>(keyed, { resendWhenUnknown })).value;
  }

  /** One attempt, no retry. */
  async send<T>(spec: RequestSpec): Promise<Reply<T>> {
    const cfg = this.#cfg;
    const where = { method: spec.method, path: cfg.prefix + spec.path };
    const headers: Record<string, string> = {
      accept: spec.accept ? `${spec.accept}, application/json` : 'application/json',
      ...(cfg.credentials ? {} : { 'user-agent': USER_AGENT }),
      ...spec.headers,
      ...cfg.authHeaders,
    };
    if (cfg.lang) headers['x-lang'] = cfg.lang;
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    if (spec.idempotencyKey !== undefined) headers['idempotency-key'] = spec.idempotencyKey;
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), cfg.timeoutMs);
    let res: Response;
    let text: string;
    let bytes: Uint8Array | null = null;
    try {
      res = await cfg.fetch(this.url(spec), {
        method: spec.method,
        headers,
        signal: ctl.signal,
        ...(cfg.credentials ? { credentials: cfg.credentials } : {}),
        ...(spec.body !== undefined ? { body: stringifyJson(spec.body) } : {}),
      });
      if (spec.binary) {
        bytes = new Uint8Array(await res.arrayBuffer());
        text = new TextDecoder().decode(bytes);
      } else text = await res.text();
    } catch (e) {
      if (ctl.signal.aborted) {
        throw new TimeoutError({ status: 0, code: 'sdk.timeout', message: `no response within ${cfg.timeoutMs} ms`, ...where });
      }
      const msg = redact(e instanceof Error ? e.message : String(e), cfg.secrets);
      if (cannotBeSent(e)) {
        const detail = e instanceof TypeError && e.cause instanceof Error ? `: ${redact(e.cause.message, cfg.secrets)}` : '';
        throw new ConfigurationError({
          status: 0,
          code: 'sdk.configuration_error',
          message: `the request cannot be sent: ${msg}${detail}`,
          ...where,
        });
      }
      throw new ConnectionError({ status: 0, code: 'sdk.network_error', message: `network error: ${msg}`, ...where, cause: causeOf(e) });
    } finally {
      clearTimeout(timer);
    }
    if (spec.accept && res.ok && (res.headers.get('content-type') ?? '').startsWith(spec.accept)) {
      return { data: (bytes ?? text) as T, pagination: null, traceId: res.headers.get('x-trace-id'), status: res.status };
    }
    return this.interpret<T>(res, text, where);
  }

  private interpret<T>(res: Response, text: string, where: { method: string; path: string }): Reply<T> {
    const secrets = this.#cfg.secrets;
    let env: WireEnvelope | null = null;
    try {
      const parsed = parseJsonLossless(text);
      if (parsed !== null && typeof parsed === 'object' && typeof (parsed as WireEnvelope).success === 'boolean')
        env = parsed as WireEnvelope;
    } catch {
      env = null;
    }
    const headerTrace = res.headers.get('x-trace-id');
    const traceId = typeof env?.traceId === 'string' ? env.traceId : headerTrace;
    if (typeof env?.timestamp === 'string') {
      const t = Date.parse(env.timestamp);
      if (!Number.isNaN(t)) this.clockOffsetMs = t - Date.now();
    }
    if (!res.ok || env?.success === false) {
      const code = typeof env?.code === 'string' ? env.code : `http.${res.status}`;
      const message = typeof env?.message === 'string' ? env.message : `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
      throw errorFromResponse({
        status: res.status,
        code,
        message: redact(message, secrets),
        traceId,
        ...where,
        retryAfterMs: parseRetryAfter(res.headers.get('retry-after'), Date.now()),
      });
    }
    if (!env) {
      throw new ResponseParseError({
        status: res.status,
        code: 'sdk.invalid_response',
        message: 'the response is not the Cambio envelope',
        traceId,
        ...where,
      });
    }
    let data: unknown;
    try {
      data = toAmounts(env.data ?? null);
    } catch (e) {
      if (!(e instanceof AmountFormatError)) throw e;
      throw new ResponseParseError({
        status: res.status,
        code: 'sdk.invalid_response',
        message: redact(e.message, secrets),
        traceId,
        ...where,
      });
    }
    const replayed = res.headers.get('idempotent-replayed') === 'true';
    return {
      data: data as T,
      pagination: (env.pagination ?? null) as Pagination | null,
      traceId,
      status: res.status,
      ...(replayed ? { replayed } : {}),
    };
  }

  private url(spec: RequestSpec): string {
    const qs = Object.entries(spec.query ?? {})
      .filter((kv): kv is [string, string | number] => kv[1] !== undefined)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
      .join('&');
    return `${this.#cfg.baseUrl}${this.#cfg.prefix}${spec.path}${qs ? `?${qs}` : ''}`;
  }
}

/**
 * 128 random bits as 32 hex digits, from `crypto.getRandomValues` (Node 20 and every browser, also on a
 * page that is not a secure context, where `randomUUID` is missing).
 */
export function newIdempotencyKey(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Keeps the system error code (ECONNREFUSED…) of a fetch failure, and nothing else of it. */
function causeOf(e: unknown): unknown {
  const c = (e as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = typeof c?.code === 'string' ? c.code : (e as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? { code } : undefined;
}

/**
 * fetch's TypeError with no system or transport error code (ECONNRESET, UND_ERR_SOCKET…): the request
 * was refused before anything left (an invalid header value such as a key with a line break, a blocked
 * port, an unknown scheme). Retrying cannot help, and nothing can have been applied.
 */
function cannotBeSent(e: unknown): boolean {
  if (!(e instanceof TypeError)) return false;
  const code = (e.cause as { code?: unknown } | undefined)?.code ?? (e as { code?: unknown }).code;
  return typeof code !== 'string' || code.startsWith('ERR_INVALID');
}

/**
 * `https://x/` and `https://x/api/v1` both mean the root `https://x`. Anything that is not an
 * absolute http(s) URL is refused here, once, instead of failing (and being retried) on every call.
 */
export function normalizeBaseUrl(url: string, prefix: string, who = 'Cambio'): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new ConfigurationError({
      status: 0,
      code: 'sdk.configuration_error',
      message: `${who}: baseUrl ${JSON.stringify(url)} is not a URL; give the service root, e.g. https://api.example.com`,
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigurationError({
      status: 0,
      code: 'sdk.configuration_error',
      message: `${who}: baseUrl must start with http:// or https:// (got ${parsed.protocol})`,
    });
  }
  if (parsed.username || parsed.password) {
    throw new ConfigurationError({
      status: 0,
      code: 'sdk.configuration_error',
      message: `${who}: baseUrl must not carry credentials; the key goes in apiKey`,
    });
  }
  if (parsed.search || parsed.hash) {
    throw new ConfigurationError({
      status: 0,
      code: 'sdk.configuration_error',
      message: `${who}: baseUrl must not carry a query or a fragment`,
    });
  }
  let u = url.trim().replace(/\/+$/, '');
  if (u.endsWith(prefix)) u = u.slice(0, -prefix.length);
  return u;
}
