import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  id: string;
}

/**
 * A loopback HTTP receiver for webhook tests. `answer` decides each request's fate: a status code, or
 * 'hang' (the response is held until `release()` or `close()`).
 */
export async function startReceiver(answer: (r: Received, nth: number) => number | 'hang' = () => 200) {
  const received: Received[] = [];
  const held: ServerResponse[] = [];
  let arrived: (() => void) | null = null;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), id: String(req.headers['webhook-id']) };
      received.push(r);
      const a = answer(r, received.length);
      arrived?.();
      if (a === 'hang') {
        held.push(res);
        return;
      }
      res.statusCode = a;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** Resolves when the next request has arrived. */
    next: () =>
      new Promise<void>((resolve) => {
        arrived = resolve;
      }),
    /** Cuts every held request (the sender sees the connection reset). */
    dropHeld: () => {
      for (const r of held.splice(0)) r.socket?.destroy();
    },
    close: async () => {
      for (const r of held.splice(0)) r.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
