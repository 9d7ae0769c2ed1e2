import { ClientApiResources } from './client-resources.ts';
import { ConfigurationError } from './errors.ts';
import { normalizeBaseUrl, Transport, type CambioEvent, type FetchLike } from './http.ts';
import type { RetryOptions } from './retry.ts';

/**
 * `sandbox: true`: the local sandbox that `npm start` runs on this machine (the same endpoints and
 * rules as production, the market off, simulated deposit addresses). It is not a hosted service.
 */
export const SANDBOX_URL = 'http://127.0.0.1:8080';
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_CLOCK_SKEW_MS = 30_000;

export interface CambioOptions {
  /** The whole key, `<tag>_live_<prefix>.<secret>`; sent as `X-API-Key`, redacted from every error. */
  apiKey: string;
  /** Root of the service (`https://…`); `/api/v1` is added. Give this or `sandbox: true`, not both. */
  baseUrl?: string;
  /** The local sandbox started by `npm start`, at http://127.0.0.1:8080. Not together with `baseUrl`. */
  sandbox?: boolean;
  /** `x-lang`: the language of error messages (`en`, `es`). Unset: the server's default (`es`). */
  lang?: string;
  /** Defaults to the global fetch of Node 20. */
  fetch?: FetchLike;
  retry?: RetryOptions;
  /** Per attempt; default 30 s. */
  timeoutMs?: number;
  /**
   * When a creating call's answer is lost, the SDK looks for records created since the call started,
   * by the server's clock (learnt from the read-back's own answer); this allowance covers the time
   * between the two. Default 30 s.
   */
  clockSkewMs?: number;
  /** Retries, lost responses and how they were resolved, for logs. */
  onEvent?: (e: CambioEvent) => void;
}

/** The client API, one method per endpoint, grouped by resource. */
export class Cambio extends ClientApiResources {
  readonly baseUrl: string;

  constructor(opts: CambioOptions) {
    if (!opts || typeof opts.apiKey !== 'string' || opts.apiKey.trim() === '') throw configError('Cambio: apiKey is required');
    const f = opts.fetch ?? (globalThis.fetch as FetchLike | undefined);
    if (!f) throw configError('Cambio: no fetch available (Node 20 or later has one)');
    const apiKey = opts.apiKey.trim();
    const baseUrl = normalizeBaseUrl(resolveRoot('Cambio', opts), '/api/v1', 'Cambio');
    super(
      new Transport({
        baseUrl,
        prefix: '/api/v1',
        authHeaders: { 'x-api-key': apiKey },
        secrets: [apiKey],
        lang: opts.lang,
        fetch: f,
        timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        retry: opts.retry ?? {},
        onEvent: opts.onEvent,
      }),
      opts.clockSkewMs ?? DEFAULT_CLOCK_SKEW_MS,
    );
    this.baseUrl = baseUrl;
  }
}

export function configError(message: string): ConfigurationError {
  return new ConfigurationError({ status: 0, code: 'sdk.configuration_error', message });
}

/** `baseUrl`, or the local sandbox with `sandbox: true`; both at once is ambiguous and refused. */
export function resolveRoot(who: string, opts: { baseUrl?: string | undefined; sandbox?: boolean | undefined }): string {
  const given = typeof opts.baseUrl === 'string' && opts.baseUrl.trim() !== '';
  if (given && opts.sandbox)
    throw configError(`${who}: give baseUrl or sandbox: true, not both (sandbox means the local ${SANDBOX_URL} that npm start runs)`);
  if (given) return opts.baseUrl!;
  if (opts.sandbox) return SANDBOX_URL;
  throw configError(
    `${who}: give baseUrl (the service root, e.g. https://api.example.com), or sandbox: true for the local sandbox at ${SANDBOX_URL}`,
  );
}
