import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import type { ManualClock } from '../src/domain/ports.ts';
import { recoverApproved } from '../src/usecases/orders/execute-approved.ts';
import { listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';
import { DOUBLE_KEY, DOUBLE_SECRET, startBinanceDouble } from './venue-double/binance-double.ts';
import { DOUBLE_KEYS } from './venue-double/exchange-double.ts';
import { startOkxDouble } from './venue-double/okx-double.ts';
import { BOOK, SELL_PAIR, venueEnv } from './venue-double/venue-harness.ts';

test("the venue's credentials appear in no log line, no answer and no printed configuration", async () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = pino({ level: 'trace', redact: ['req.headers["x-api-key"]', 'req.headers.authorization'] }, sink);
  const double = await startBinanceDouble();
  double.setBook('BTCUSDT', BOOK);
  double.setBalance('BTC', '100');
  const answers: string[] = [];
  const hs: Harness[] = [];
  try {
    // Once with the right credentials, once with a wrong secret (the venue answers -1022 and the error is logged).
    for (const secret of [DOUBLE_SECRET, 'wrong-secret-4d1c9e0a']) {
      const h = await makeHarness({
        manualClock: true,
        env: { ...venueEnv(double.origin), CAMBIO_VENUE_SECRET: secret, LOG_LEVEL: 'trace' },
        deps: { logger },
      });
      hs.push(h);
      await listAssets(h, { BTC: 8, USDT: 2 });
      answers.push((await h.op('PUT', '/market/pairs/BTC/USDT', SELL_PAIR)).raw, (await h.op('GET', '/market/pairs')).raw);
      const o = await seedOrg(h, { balances: { BTC: 1_000_000_000n } });
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '100000000' });
      answers.push(q.raw);
      const order = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
      answers.push(order.raw, (await h.op('POST', `/orders/${order.body.data.id}/approve`)).raw);
      double.dropAfterNextOrder();
      const q2 = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '100000000' });
      const order2 = await h.call(o.key, 'POST', '/orders', { quoteId: q2.body.data.id });
      answers.push((await h.op('POST', `/orders/${order2.body.data.id}/approve`)).raw);
      (h.clock as ManualClock).advance(1);
      await recoverApproved(h.deps, 0);
      answers.push((await h.op('GET', '/orders')).raw, (await h.op('GET', '/audit')).raw);
      lines.push(JSON.stringify(h.config), String(h.config.venue), JSON.stringify(loadConfig(venueEnv(double.origin))));
    }
    // The wrong secret really was refused by the venue, and that was logged: the check below has something to look at.
    assert.ok(
      lines.some((l) => l.includes('Signature for this request is not valid')),
      'a venue refusal was logged',
    );
    assert.ok(lines.length > 20);
    for (const text of [...lines, ...answers]) {
      for (const secret of [DOUBLE_KEY, DOUBLE_SECRET, 'wrong-secret-4d1c9e0a'])
        assert.ok(!text.includes(secret), `a credential leaked: ${text.slice(0, 200)}`);
    }
  } finally {
    for (const h of hs) await h.close();
    await double.close();
  }
});

test("OKX's passphrase, key and secret appear in no log line, no answer and no printed configuration", async () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = pino({ level: 'trace', redact: ['req.headers["x-api-key"]', 'req.headers.authorization'] }, sink);
  const double = await startOkxDouble();
  double.setBook(BOOK);
  double.setBalance('BTC', '100');
  const answers: string[] = [];
  const hs: Harness[] = [];
  const wrong = 'wrong-passphrase-8c2f17';
  try {
    // Once with the right passphrase, once with a wrong one (OKX answers 50105 and the error is logged).
    for (const password of [DOUBLE_KEYS.okx.password, wrong]) {
      const env = {
        ...venueEnv(double.origin),
        ...double.env,
        CAMBIO_VENUE_PASSWORD: password,
        LOG_LEVEL: 'trace',
      };
      const h = await makeHarness({ manualClock: true, env, deps: { logger } });
      hs.push(h);
      await listAssets(h, { BTC: 8, USDT: 2 });
      answers.push((await h.op('PUT', '/market/pairs/BTC/USDT', SELL_PAIR)).raw);
      const o = await seedOrg(h, { balances: { BTC: 1_000_000_000n } });
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '100000000' });
      const order = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
      answers.push(q.raw, order.raw, (await h.op('POST', `/orders/${order.body.data.id}/approve`)).raw);
      answers.push((await h.op('POST', '/reconciliation/run')).raw, (await h.op('GET', '/venue')).raw);
      lines.push(JSON.stringify(h.config), String(h.config.venue), JSON.stringify(loadConfig(env)));
    }
    assert.ok(
      lines.some((l) => l.includes('Invalid OK-ACCESS-PASSPHRASE')),
      'the refused passphrase was logged',
    );
    for (const text of [...lines, ...answers])
      for (const secret of [DOUBLE_KEYS.okx.key, DOUBLE_KEYS.okx.secret, DOUBLE_KEYS.okx.password, wrong])
        assert.ok(!text.includes(secret), `a credential leaked: ${text.slice(0, 200)}`);
  } finally {
    for (const h of hs) await h.close();
    await double.close();
  }
});
