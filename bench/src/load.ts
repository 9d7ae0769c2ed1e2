import autocannon, { type Instance, type Request, type RequestParams } from 'autocannon';

/** One request the load generator sends; `kind` labels it in the per-kind counts (e.g. the mix). */
export interface Shot {
  method: 'GET' | 'POST';
  path: string;
  key: string;
  body?: string;
  kind: string;
  org?: number;
  /** Headers beside the key's (the operator's bearer token, for example). */
  headers?: Record<string, string>;
}

export interface LoadSpec {
  url: string;
  connections: number;
  /** Seconds; or `amount` requests in all (used to fill quote pools). */
  duration?: number;
  amount?: number;
  /** The next request; null when the work is used up (for example the quote pool): the run stops there. */
  next?: () => Shot | null;
  /**
   * Requests that depend on no earlier answer (reads) may instead be given as a cycle, all of one kind:
   * each connection sends them in turn, built once, and no callback runs per request or per body. That
   * is a third less of the load generator's CPU per request, CPU the server it measures then has. Each
   * connection starts at its own place in the cycle, so the connections' requests stay spread over it,
   * as the shared `next` spreads them.
   */
  cycle?: Shot[];
  /** Sees every response body (e.g. to collect quote ids). */
  onBody?: (shot: Shot, status: number, body: string) => void;
}

export interface KindStats {
  ok: number;
  errors: number;
}
export interface LoadResult {
  durationSec: number;
  ok: number;
  errors: number;
  statusCodes: Record<string, number>;
  /** Successful (2xx) responses per second of the measured window. */
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  byKind: Record<string, KindStats>;
  /** The run ended early because `next` returned null. */
  exhausted: boolean;
}

const IDLE: Shot = { method: 'GET', path: '/health', key: '', kind: 'idle' };

/**
 * Drives the server with autocannon (programmatic, one request in flight per connection) and keeps
 * every response time itself, so p50/p99 have sub-millisecond resolution and a run that ends early
 * (pool used up) is measured up to that moment only.
 */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const times: number[] = [];
  const byKind: Record<string, KindStats> = {};
  const statusCodes: Record<string, number> = {};
  let lastShot: Shot = IDLE;
  let exhaustedAt: number | null = null;
  let instance: Instance | undefined;
  const started = Date.now();

  const setupRequest = (req: RequestParams, ctx: Record<string, unknown>): RequestParams => {
    let shot = exhaustedAt === null ? (spec.next?.() ?? null) : null;
    if (!shot) {
      if (exhaustedAt === null) {
        exhaustedAt = Date.now();
        // autocannon stops at its next sampling tick; until then connections send harmless, uncounted reads.
        setImmediate(() => instance?.stop());
      }
      shot = IDLE;
    }
    ctx.shot = shot;
    return { ...req, method: shot.method, path: shot.path, headers: headersOf(shot), body: shot.body ?? '' };
  };
  const onResponse = (status: number, body: string, ctx: Record<string, unknown>) => {
    lastShot = (ctx.shot as Shot | undefined) ?? IDLE;
    if (lastShot.kind !== 'idle') spec.onBody?.(lastShot, status, body);
  };

  const cycle = spec.cycle;
  if (cycle) {
    if (spec.onBody) throw new Error('a cycle sees no bodies: give `next` to see them');
    if (cycle.length === 0 || cycle.some((s) => s.kind !== cycle[0]!.kind || s.kind === 'idle'))
      throw new Error('a cycle is one kind of request');
    lastShot = cycle[0]!;
  }
  const built: Request[] | undefined = cycle?.map((shot) => ({
    method: shot.method,
    path: shot.path,
    headers: headersOf(shot),
    ...(shot.body !== undefined ? { body: shot.body } : {}),
  }));
  let connection = 0;
  const perConnection = built && {
    requests: built,
    setupClient: (client: { setRequests(r: Request[]): void }) => {
      const at = Math.floor((connection++ * built.length) / spec.connections) % built.length;
      client.setRequests([...built.slice(at), ...built.slice(0, at)]);
    },
  };

  return new Promise((resolve, reject) => {
    instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        pipelining: 1,
        timeout: 30,
        ...(spec.amount !== undefined ? { amount: spec.amount } : { duration: spec.duration ?? 10 }),
        ...(perConnection ?? { requests: [{ setupRequest, onResponse }] }),
      },
      (err, result) => {
        if (err) return reject(err);
        const end = exhaustedAt ?? started + result.duration * 1000;
        const durationSec = Math.max(0.001, (end - started) / 1000);
        times.sort((a, b) => a - b);
        const ok = Object.values(byKind).reduce((s, k) => s + k.ok, 0);
        const errors = Object.values(byKind).reduce((s, k) => s + k.errors, 0) + result.errors;
        resolve({
          durationSec,
          ok,
          errors,
          statusCodes,
          byKind,
          reqPerSec: ok / durationSec,
          p50Ms: percentile(times, 0.5),
          p99Ms: percentile(times, 0.99),
          exhausted: exhaustedAt !== null,
        });
      },
    );
    // Runs right after onResponse for the same connection, so lastShot is this response's request.
    instance.on('response', (_client, statusCode, _bytes, ms) => {
      if (lastShot.kind === 'idle') return;
      if (exhaustedAt !== null && Date.now() > exhaustedAt) return;
      const k = (byKind[lastShot.kind] ??= { ok: 0, errors: 0 });
      if (statusCode >= 200 && statusCode < 300) k.ok++;
      else k.errors++;
      statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
      times.push(ms);
    });
  });
}

function headersOf(shot: Shot): Record<string, string> {
  const headers: Record<string, string> = { ...(shot.key ? { 'x-api-key': shot.key } : {}), ...shot.headers };
  if (shot.body !== undefined) headers['content-type'] = 'application/json';
  return headers;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return Math.round(sorted[i]! * 100) / 100;
}
