/**
 * One HTTP call and what came of it. A call either got an answer (status and body), was refused before
 * it reached a process (nothing was listening: it cannot have changed anything), or was lost (sent, but
 * no answer: it may or may not have been carried out, so the checker allows for it).
 */
export type Outcome =
  | { kind: 'answered'; status: number; body: Envelope; raw: string; retryAfter: string | null }
  | { kind: 'refused' }
  | { kind: 'lost'; error: string };

export interface Envelope {
  success: boolean;
  message: string | null;
  data: any;
  code: string | null;
  timestamp: string;
  traceId: string | null;
  pagination: unknown;
}

const ENVELOPE_KEYS = ['success', 'message', 'data', 'code', 'timestamp', 'traceId', 'pagination'];

/** The envelope's shape, as every response must have it; returns what is wrong, or null. */
export function envelopeProblem(status: number, raw: string): string | null {
  let b: any;
  try {
    b = JSON.parse(raw);
  } catch {
    return `status ${status}: body is not JSON: ${raw.slice(0, 200)}`;
  }
  if (b === null || typeof b !== 'object') return `status ${status}: body is not an object`;
  const keys = Object.keys(b).sort().join(',');
  if (keys !== [...ENVELOPE_KEYS].sort().join(',')) return `status ${status}: envelope keys are ${keys}`;
  if (status >= 400 && (b.success !== false || b.data !== null || typeof b.code !== 'string'))
    return `status ${status}: error envelope is ${raw.slice(0, 200)}`;
  if (status < 400 && b.success !== true) return `status ${status}: success is not true`;
  return null;
}

export async function call(
  base: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {},
): Promise<Outcome> {
  const headers: Record<string, string> = { 'x-lang': 'en', ...opts.headers };
  let payload: string | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(opts.body);
  }
  try {
    const r = await fetch(base + path, { method, headers, body: payload, signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000) });
    const raw = await r.text();
    let body: Envelope;
    try {
      body = JSON.parse(raw) as Envelope;
    } catch {
      body = { success: false, message: raw, data: null, code: null, timestamp: '', traceId: null, pagination: null };
    }
    return { kind: 'answered', status: r.status, body, raw, retryAfter: r.headers.get('retry-after') };
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause;
    if (cause?.code === 'ECONNREFUSED') return { kind: 'refused' };
    return { kind: 'lost', error: `${(e as Error).name}: ${cause?.code ?? (e as Error).message}` };
  }
}
