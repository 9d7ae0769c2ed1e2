import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { httpWebhookSender } from '../src/webhooks/http-sender.ts';

/** A receiver on one loopback address: which requests it answered, over how many connections. */
async function receiverOn(address: string, port = 0, answer = 204) {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(String(req.headers['webhook-id']));
      res.statusCode = answer;
      res.end('thanks');
    });
  });
  server.on('connection', (s: Socket) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(port, address, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    connections: () => sockets.size,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const post = (url: string, id: string) => ({ url, headers: { 'webhook-id': id }, body: '{}', timeoutMs: 5000 });

/**
 * Attempts to one endpoint reuse a kept connection, but only one opened to the address checked for this
 * attempt: when the name resolves elsewhere (DNS rebinding), the next attempt goes there on a connection of
 * its own, never down the connection kept to the earlier address.
 */
describe('webhook connections kept between attempts', () => {
  let one: Awaited<ReturnType<typeof receiverOn>>;
  let two: Awaited<ReturnType<typeof receiverOn>>;
  before(async () => {
    one = await receiverOn('127.0.0.1');
    two = await receiverOn('127.0.0.2', one.port);
  });
  after(async () => {
    await one.close();
    await two.close();
  });

  test('reused for the same checked address, never for another', async () => {
    let answer = '127.0.0.1';
    const sender = httpWebhookSender({ allowPrivate: true, resolve: async () => [{ address: answer, family: 4 }] });
    const url = `http://hooks.example.test:${one.port}/in`;
    for (const id of ['a', 'b', 'c']) assert.deepEqual(await sender.post(post(url, id)), { statusCode: 204 });
    assert.deepEqual(one.seen, ['a', 'b', 'c']);
    assert.equal(one.connections(), 1, 'three attempts over one connection');

    answer = '127.0.0.2';
    assert.deepEqual(await sender.post(post(url, 'd')), { statusCode: 204 });
    assert.deepEqual(two.seen, ['d'], 'the attempt went to the address it checked');
    assert.deepEqual(one.seen, ['a', 'b', 'c'], 'not down the connection kept to the old address');

    answer = '127.0.0.1';
    assert.deepEqual(await sender.post(post(url, 'e')), { statusCode: 204 });
    assert.deepEqual(one.seen, ['a', 'b', 'c', 'e']);
    assert.equal(one.connections(), 1);
  });

  test('a private address is still refused before any connection is taken, kept or new', async () => {
    const sender = httpWebhookSender({ allowPrivate: false, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    const before = one.seen.length;
    const r = await sender.post(post(`http://hooks.example.test:${one.port}/in`, 'x'));
    assert.equal(r.error, 'address not allowed');
    assert.equal(one.seen.length, before);
  });

  test('a receiver that closed the kept connection gets the next attempt on a new one', async () => {
    const sender = httpWebhookSender({ allowPrivate: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    const rx = await receiverOn('127.0.0.1');
    try {
      const url = `http://hooks.example.test:${rx.port}/in`;
      assert.deepEqual(await sender.post(post(url, 'f')), { statusCode: 204 });
      await rx.close().catch(() => undefined);
      const again = await receiverOn('127.0.0.1', rx.port);
      try {
        assert.deepEqual(await sender.post(post(url, 'g')), { statusCode: 204 });
        assert.deepEqual(again.seen, ['g']);
      } finally {
        await again.close();
      }
    } finally {
      await rx.close().catch(() => undefined);
    }
  });
});

/**
 * Two endpoints on one host keep connections of their own: one whose receiver holds every attempt open
 * (as many as its pool takes) leaves the other endpoint's attempts nothing to wait for.
 */
test('a slow endpoint holds only its own connections: another endpoint on the same host is answered at once', async () => {
  const held: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/slow')
        held.push(() => {
          res.statusCode = 204;
          res.end();
        });
      else {
        res.statusCode = 204;
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const sender = httpWebhookSender({ allowPrivate: true });
    const SLOW = 40; // more than any one endpoint's pool holds
    const slow = Array.from({ length: SLOW }, (_, i) =>
      sender.post({ ...post(`${base}/slow`, `s${i}`), endpointId: 'whe_slow', timeoutMs: 20_000 }),
    );
    for (const end = Date.now() + 5000; held.length < 16 && Date.now() < end;) await new Promise((r) => setTimeout(r, 10));
    assert.equal(held.length, 16, "the slow endpoint holds its pool's sixteen connections, the rest of its attempts wait for them");
    const t0 = Date.now();
    const fast = await sender.post({ ...post(`${base}/fast`, 'f1'), endpointId: 'whe_fast' });
    assert.deepEqual(fast, { statusCode: 204 });
    assert.ok(Date.now() - t0 < 2000, `the other endpoint was answered in ${Date.now() - t0} ms, not after the slow one's`);
    while (
      held.length > 0 ||
      (await Promise.race([Promise.all(slow).then(() => true), new Promise((r) => setTimeout(() => r(false), 20))])) === false
    ) {
      held.splice(0).forEach((release) => release());
    }
    assert.deepEqual(await Promise.all(slow), Array(SLOW).fill({ statusCode: 204 }));
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
