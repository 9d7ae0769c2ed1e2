import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What every exchange double shares (kraken-double.ts, okx-double.ts, coinbase-double.ts): a loopback HTTP
 * server that records each request, can fail the next requests to a path (a status or a cut connection),
 * and hands each request to the exchange's own routes with its query and body parsed. Each double speaks
 * its exchange's paths, JSON shapes and error bodies closely enough that the real CCXT drives it unchanged;
 * signatures are not checked (the key header is).
 */
export interface DoubleRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The body: JSON when it was JSON, else form fields. */
  body: Record<string, unknown>;
  headers: IncomingMessage['headers'];
}

/** An answer: a status and a JSON body, or `drop` (the connection cut, nothing answered). */
export type DoubleAnswer = { status: number; body: unknown } | 'drop';

type Fault = { kind: 'status'; status: number; body: unknown } | { kind: 'drop' };

export async function startDoubleServer(
  route: (r: DoubleRequest) => DoubleAnswer | null,
  /** The exchange's answer to a failing request (a 5xx body in its own shape). */
  failureBody: unknown,
) {
  const requests: Array<{ method: string; path: string }> = [];
  const unknown: string[] = [];
  const faults: Array<{ path: string; fault: Fault; times: number; method: string | undefined }> = [];

  const send = (res: ServerResponse, a: DoubleAnswer) => {
    if (a === 'drop') {
      res.socket?.destroy();
      return;
    }
    res.writeHead(a.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(a.body));
  };

  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    const url = new URL(req.url ?? '/', 'http://double');
    const method = req.method ?? 'GET';
    requests.push({ method, path: url.pathname });
    const f = faults.find((x) => x.times > 0 && url.pathname.startsWith(x.path) && (x.method === undefined || x.method === method));
    if (f) {
      f.times -= 1;
      return send(res, f.fault.kind === 'drop' ? 'drop' : { status: f.fault.status, body: f.fault.body });
    }
    let body: Record<string, unknown> = {};
    if (text !== '') {
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = Object.fromEntries(new URLSearchParams(text));
      }
    }
    const answer = route({ method, path: url.pathname, query: url.searchParams, body, headers: req.headers });
    if (answer === null) {
      unknown.push(`${method} ${url.pathname}`);
      return send(res, { status: 404, body: { error: `the double does not answer ${method} ${url.pathname}` } });
    }
    return send(res, answer);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Every request's method and path. */
    requests,
    /** Requests no route knew. */
    unknown,
    /** The next `times` requests whose path starts with `path` (and of `method`) get this status (or a cut connection). */
    fail(path: string, fault: number | 'drop', times = 1, method?: 'GET' | 'POST') {
      faults.push({
        path,
        fault: fault === 'drop' ? { kind: 'drop' } : { kind: 'status', status: fault, body: failureBody },
        times,
        method,
      });
    },
    clearFaults() {
      faults.length = 0;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
