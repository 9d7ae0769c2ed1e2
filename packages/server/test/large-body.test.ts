import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { backends, btcUsdMarket, makeHarness, seedOrg, type Harness } from './harness.ts';

const FIVE_MB = 5 * 1024 * 1024;

interface Outcome {
  /** Everything the client read back. */
  answer: string;
  /** How many body bytes the client managed to write. */
  written: number;
  /** A socket error the client saw (EPIPE, ECONNRESET), if any. */
  error: string | null;
}

/**
 * A client over a real socket that sends a 5 MB body in 64 KiB pieces, waiting for the socket to drain (and
 * a turn of the event loop) between pieces, then reads whatever comes back until the service closes.
 */
function slowPost(port: number, path: string, headers: Record<string, string>, size: number, chunked = false): Promise<Outcome> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    const out: Outcome = { answer: '', written: 0, error: null };
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      resolve(out);
    };
    s.on('data', (d) => (out.answer += d.toString()));
    s.on('error', (e: Error & { code?: string }) => (out.error = e.code ?? e.message));
    s.on('close', finish);
    const head =
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${size}`}\r\n` +
      Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('') +
      '\r\n';
    const piece = Buffer.alloc(64 * 1024, 0x20);
    const write = (buf: Buffer) =>
      new Promise<void>((ok) => {
        if (s.destroyed) return ok();
        if (s.write(buf)) setImmediate(ok);
        else s.once('drain', ok);
      });
    s.on('connect', async () => {
      await write(Buffer.from(head));
      while (out.written < size && !s.destroyed) {
        const n = Math.min(piece.length, size - out.written);
        const bytes = n === piece.length ? piece : piece.subarray(0, n);
        await write(chunked ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]) : bytes);
        out.written += n;
      }
      if (chunked) await write(Buffer.from('0\r\n\r\n'));
      // Written whole: nothing more to send; the answer is read until the service closes (or keeps it alive).
      if (!s.destroyed) s.end();
    });
    setTimeout(() => {
      out.error ??= 'timeout';
      s.destroy();
      finish();
    }, 60_000).unref();
  });
}

function envelopeOf(answer: string): { status: number; body: { code: string; success: boolean; data: unknown; traceId: string } } {
  const [head, body] = answer.split('\r\n\r\n') as [string, string];
  return { status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]), body: JSON.parse(body) };
}

for (const backend of backends()) {
  describe(`a body over the limit, written slowly over real sockets (${backend})`, () => {
    let h: Harness;
    let app: FastifyInstance;
    let port: number;
    let key: string;
    before(async () => {
      h = await makeHarness({ backend });
      await btcUsdMarket(h);
      key = (await seedOrg(h, { balances: { USD: 1000n } })).key;
      app = await buildApp(h.deps);
      await app.listen({ port: 0, host: '127.0.0.1' });
      port = (app.server.address() as { port: number }).port;
    });
    after(async () => {
      await app?.close();
      await h?.close();
    });

    test('eight clients each sending 5 MB to POST /api/v1/quotes at once all read the 413 envelope, none a broken connection', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, () => slowPost(port, '/api/v1/quotes', { 'X-API-Key': key, 'x-lang': 'en' }, FIVE_MB)),
      );
      for (const o of outcomes) {
        assert.equal(o.error, null, `the client saw ${o.error} after writing ${o.written} bytes, reading ${o.answer.slice(0, 80)}`);
        assert.equal(o.written, FIVE_MB);
        const { status, body } = envelopeOf(o.answer);
        assert.equal(status, 413);
        assert.equal(body.code, 'request.body_too_large');
        assert.equal(body.success, false);
        assert.equal(body.data, null);
      }
      // The service goes on answering.
      const ok = await fetch(`http://127.0.0.1:${port}/api/v1/quotes`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ baseAssetSymbol: 'BTC', quoteAssetSymbol: 'USD', side: 'sell', amountBaseMinor: '100000' }),
      });
      assert.notEqual(ok.status, 413);
    });

    test('a chunked 5 MB body (no Content-Length), from two clients at once, is read to its end and answered 413 too', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 2 }, () => slowPost(port, '/api/v1/quotes', { 'X-API-Key': key, 'x-lang': 'en' }, FIVE_MB, true)),
      );
      for (const o of outcomes) {
        assert.equal(o.error, null, `the client saw ${o.error} after writing ${o.written} bytes`);
        assert.equal(o.written, FIVE_MB);
        const { status, body } = envelopeOf(o.answer.replace(/\r\n[0-9a-f]+\r\n/, '\r\n'));
        assert.equal(status, 413);
        assert.equal(body.code, 'request.body_too_large');
      }
    });

    test('fetch sending 5 MB at once reads the 413 envelope too', async () => {
      const r = await fetch(`http://127.0.0.1:${port}/api/v1/quotes`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json', 'x-lang': 'en' },
        body: JSON.stringify({ pad: ' '.repeat(FIVE_MB) }),
      });
      assert.equal(r.status, 413);
      assert.equal((await r.json()).code, 'request.body_too_large');
    });
  });
}
