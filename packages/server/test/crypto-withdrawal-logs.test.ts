/**
 * The whole address of a crypto destination is never written to the logs, where it would sit beside
 * the venue's credentials' traces (docs/security.md): every log line of registering an address and of
 * crypto withdrawals at the Binance double through CCXT (completed, a dropped connection, a connection
 * dropped before the venue got it, a refusal, a wrong secret) is captured at trace level and searched.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import type { ManualClock } from '../src/domain/ports.ts';
import { recoverCryptoWithdrawals } from '../src/usecases/withdrawals/send-crypto.ts';
import { backends, listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';
import { DOUBLE_KEY, DOUBLE_SECRET, startBinanceDouble } from './venue-double/binance-double.ts';
import { venueEnv } from './venue-double/venue-harness.ts';

const ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const WRONG_SECRET = 'wrong-secret-7b2e91c4';

for (const backend of backends()) {
  test(`a crypto withdrawal's whole address appears in no log line, nor do the venue's credentials (${backend})`, async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = pino({ level: 'trace', redact: ['req.headers["x-api-key"]', 'req.headers.authorization'] }, sink);
    const double = await startBinanceDouble();
    double.setBalance('BTC', '100');
    const hs: Harness[] = [];
    const ids: string[] = [];
    try {
      for (const secret of [DOUBLE_SECRET, WRONG_SECRET]) {
        const h = await makeHarness({
          backend,
          manualClock: true,
          env: { ...venueEnv(double.origin), CAMBIO_VENUE_SECRET: secret, LOG_LEVEL: 'trace' },
          deps: { logger },
        });
        hs.push(h);
        await listAssets(h, { BTC: 8 });
        assert.equal((await h.op('PUT', '/market/assets/BTC', { decimals: 8, kind: 'crypto' })).status, 200);
        const o = await seedOrg(h, { balances: { BTC: 100_000_000n } });
        const d = await h.call(o.key, 'POST', '/withdrawals/destinations/crypto', {
          label: 'Cold',
          assetSymbol: 'BTC',
          network: 'BTC',
          address: ADDRESS,
        });
        assert.equal(d.status, 201, d.raw);
        assert.equal((await h.op('POST', `/destinations/${d.body.data.id}/register-in-market`)).status, 200);
        const withdraw = async (before?: () => void) => {
          const w = await h.call(o.key, 'POST', '/withdrawals', {
            destinationId: d.body.data.id,
            assetSymbol: 'BTC',
            assetDecimals: 8,
            amountMinor: '1000000',
          });
          assert.equal(w.status, 201, w.raw);
          before?.();
          const a = await h.op('POST', `/withdrawals/${w.body.data.id}/approve`);
          assert.equal(a.status, 200, a.raw);
          ids.push(w.body.data.id);
          return a.body.data as { state: string; reason: string | null };
        };
        if (secret === DOUBLE_SECRET) {
          assert.equal((await withdraw()).state, 'completed');
          assert.equal((await withdraw(() => double.dropAfterNextWithdrawal())).state, 'completed');
          assert.equal((await withdraw(() => double.fail('/sapi/v1/capital/withdraw/apply', 'drop', 1, 'POST'))).state, 'approved');
          (h.clock as ManualClock).advance(60_000);
          await recoverCryptoWithdrawals(h.deps);
          assert.equal((await withdraw(() => double.refuseNextWithdrawal())).state, 'failed');
        } else {
          // The venue refuses the signature: the withdrawal is not completed, and the refusal is logged.
          assert.notEqual((await withdraw()).state, 'completed');
          (h.clock as ManualClock).advance(60_000);
          await recoverCryptoWithdrawals(h.deps);
        }
      }
      assert.ok(
        lines.some((l) => l.includes('Signature for this request is not valid')),
        'the refusal of the wrong secret was logged: the search below has something to look at',
      );
      assert.ok(
        ids.every((id) => lines.some((l) => l.includes(id))),
        'each withdrawal is in the logs by its id',
      );
      assert.equal(double.withdrawals.filter((w) => w.address === ADDRESS).length >= 3, true, 'the address did reach the venue');
      for (const line of lines) {
        for (const secret of [ADDRESS, DOUBLE_KEY, DOUBLE_SECRET, WRONG_SECRET])
          assert.ok(!line.includes(secret), `logged whole: ${secret.slice(0, 6)}…: ${line.slice(0, 300)}`);
      }
    } finally {
      for (const h of hs) await h.close();
      await double.close();
    }
  });
}
