// Fake fetches for the SDK's offline tests: answers in order or per route, and records every call.
import { Cambio, type CambioEvent, type RetryOptions } from '../src/index.ts';

export const KEY = 'cmb_live_abcd1234.s3cr3tS3CR3Ts3cr3tS3CR3T';

export interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}
export type Handler = (c: Call, signal: AbortSignal) => Response | Promise<Response>;

export function env(data: unknown, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    success: true,
    message: null,
    data,
    code: null,
    timestamp: new Date().toISOString(),
    traceId: 'tr-ok',
    pagination: null,
    ...extra,
  });
}
export function ok(data: unknown, extra: Record<string, unknown> = {}, status = 200) {
  return new Response(env(data, extra), { status, headers: { 'content-type': 'application/json' } });
}
export function fail(status: number, code: string, message = 'refused', headers: Record<string, string> = {}) {
  return new Response(
    JSON.stringify({
      success: false,
      message,
      data: null,
      code,
      timestamp: new Date().toISOString(),
      traceId: `tr-${status}`,
      pagination: null,
    }),
    { status, headers: { 'content-type': 'application/json', ...headers } },
  );
}
export const netError =
  (code = 'ECONNRESET') =>
  () => {
    throw Object.assign(new TypeError('fetch failed'), { cause: { code } });
  };
/** Never answers; rejects when the SDK's timeout aborts the request. */
export const hang: Handler = (_c, signal) =>
  new Promise((_r, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));

/** A fake fetch that answers with the handlers in order (the last one repeats) and records every call. */
export function fakeFetch(...handlers: Handler[]) {
  const calls: Call[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    const c: Call = {
      method: String(init.method),
      url,
      headers: { ...(init.headers as Record<string, string>) },
      body: init.body as string | undefined,
    };
    calls.push(c);
    const h = handlers[Math.min(calls.length - 1, handlers.length - 1)]!;
    return h(c, init.signal!);
  };
  return { fetch, calls };
}

/** A routing fake fetch: handlers per "METHOD /path", each a queue (the last one repeats). */
export function routedFetch(routes: Record<string, Handler[]>) {
  const calls: Call[] = [];
  const seen: Record<string, number> = {};
  const fetch = async (url: string, init: RequestInit) => {
    const c: Call = {
      method: String(init.method),
      url,
      headers: { ...(init.headers as Record<string, string>) },
      body: init.body as string | undefined,
    };
    calls.push(c);
    const key = `${c.method} ${new URL(url).pathname}`;
    const q = routes[key];
    if (!q) throw new Error(`unexpected call ${key}`);
    const n = (seen[key] = (seen[key] ?? 0) + 1);
    return q[Math.min(n - 1, q.length - 1)]!(c, init.signal!);
  };
  return { fetch, calls, count: (key: string) => seen[key] ?? 0 };
}

export function sdk(
  fetch: (u: string, i: RequestInit) => Promise<Response>,
  retry: RetryOptions = {},
  extra: Partial<ConstructorParameters<typeof Cambio>[0]> = {},
) {
  const sleeps: number[] = [];
  const events: CambioEvent[] = [];
  const c = new Cambio({
    apiKey: KEY,
    baseUrl: 'https://api.test',
    lang: 'en',
    fetch,
    timeoutMs: 2000,
    retry: {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
      ...retry,
    },
    onEvent: (e) => events.push(e),
    ...extra,
  });
  return { c, sleeps, events };
}
