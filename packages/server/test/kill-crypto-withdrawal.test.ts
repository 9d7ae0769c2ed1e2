import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { callJson, childService, until, type ChildService } from './child-service.ts';
import { backends, OPERATOR_TOKEN } from './harness.ts';
import { startBinanceDouble, type BinanceDouble } from './venue-double/binance-double.ts';
import { venueEnv } from './venue-double/venue-harness.ts';

const FUNDED = 100_000_000n;
const AMOUNT = 2_500_000n;

/** The service at the Binance double as `npm start` runs it, a member's key, and a usable crypto destination. */
async function service(backend: 'pglite' | 'postgres', double: BinanceDouble) {
  const s = await childService(backend, {
    ...venueEnv(double.origin),
    CAMBIO_SEED_DEMO: 'false',
    OPERATOR_TOKEN,
    CAMBIO_RECOVERY_GRACE_MS: '2000',
  });
  const op = async (method: string, path: string, body?: unknown) => {
    const r = await callJson(s, method, `/operator/v1${path}`, body, 'operator');
    assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.raw}`);
    return r.data;
  };
  try {
    await op('PUT', '/market/assets/BTC', { decimals: 8, kind: 'crypto' });
    const org = await op('POST', '/organizations', { name: 'Kill crypto', status: 'active', limits: {} });
    const mem = await op('POST', `/organizations/${org.id}/members`, {
      name: 'Treasurer',
      email: 'treasurer@kill.test',
      permissions: ['portal:read', 'portal:destinations', 'portal:withdraw', 'portal:api_keys'],
    });
    const key = await op('POST', `/members/${mem.id}/api-keys`, { scopes: ['portal:read', 'portal:destinations', 'portal:withdraw'] });
    await op('POST', `/organizations/${org.id}/adjustments`, { assetSymbol: 'BTC', amountMinor: FUNDED.toString(), reason: 'funding' });
    const client: ChildService = { ...s, apiKey: key.key };
    const d = await callJson(client, 'POST', '/api/v1/withdrawals/destinations/crypto', {
      label: 'Cold',
      assetSymbol: 'BTC',
      network: 'BTC',
      address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    });
    assert.equal(d.status, 201, d.raw);
    await op('POST', `/destinations/${d.data.id}/register-in-market`);
    return { s, client, destinationId: d.data.id as string };
  } catch (e) {
    await s.cleanup();
    throw e;
  }
}

async function btc(client: ChildService) {
  const r = await callJson(client, 'GET', '/api/v1/balances');
  const b = (r.data as Array<{ assetSymbol: string; amountMinor: string; heldMinor: string }>).find((x) => x.assetSymbol === 'BTC');
  return { available: BigInt(b?.amountMinor ?? '0'), held: BigInt(b?.heldMinor ?? '0') };
}

for (const backend of backends()) {
  describe(`a crypto withdrawal survives a SIGKILL between sending it and recording its outcome (${backend})`, () => {
    let double: BinanceDouble;
    before(async () => {
      double = await startBinanceDouble();
      double.setBalance('BTC', '100');
    });
    after(async () => {
      await double.close();
    });

    test(
      "killed while the venue's answer is on its way: after the restart it completes once with the txid, one withdrawal at the venue",
      // Two starts of the service as `npm start` runs it: minutes on a loaded machine.
      { timeout: 600_000 },
      async () => {
        const { s, client, destinationId } = await service(backend, double);
        try {
          const w = await callJson(client, 'POST', '/api/v1/withdrawals', {
            destinationId,
            assetSymbol: 'BTC',
            assetDecimals: 8,
            amountMinor: AMOUNT.toString(),
          });
          assert.equal(w.status, 201, w.raw);
          const id = w.data.id as string;
          const recorded = double.holdNextWithdrawal();
          const approving = callJson(s, 'POST', `/operator/v1/withdrawals/${id}/approve`, {}, 'operator').catch(() => null);
          const sent = await recorded;
          assert.equal(sent.withdrawOrderId, id);
          await s.kill();
          assert.equal(await approving, null, 'the approval was never answered');

          // The crash left the withdrawal approved and its venue row `sending`: written before the request left.
          const store = await s.openStore();
          try {
            const row = (
              await sql<{
                state: string;
                attempts: number;
              }>`select state, attempts from venue_withdrawals where withdrawal_id = ${id}`.execute(store.db)
            ).rows[0];
            assert.deepEqual({ ...row }, { state: 'sending', attempts: 1 });
            const wd = (await sql<{ state: string }>`select state from withdrawals where id = ${id}`.execute(store.db)).rows[0];
            assert.equal(wd?.state, 'approved');
          } finally {
            await store.close();
          }

          await s.start();
          const done = await until(
            async () => {
              const r = await callJson(client, 'GET', `/api/v1/withdrawals/${id}`);
              return r.status === 200 && r.data.state === 'completed' ? r.data : undefined;
            },
            200,
            120_000,
          );
          assert.equal(done.txid, sent.txId);
          assert.equal(double.withdrawalsPerOrderId().get(id), 1, "exactly one withdrawal with the withdrawal's id as withdraw order id");
          assert.deepEqual(await btc(client), { available: FUNDED - AMOUNT, held: 0n });
          // Later passes find it settled and send nothing: another withdrawal, left processing at the venue,
          // completes only through a pass of the follower after the restart's, and the first is still sent once.
          double.completeWithdrawalsAtOnce(false);
          const w2 = await callJson(client, 'POST', '/api/v1/withdrawals', {
            destinationId,
            assetSymbol: 'BTC',
            assetDecimals: 8,
            amountMinor: AMOUNT.toString(),
          });
          assert.equal(w2.status, 201, w2.raw);
          const id2 = w2.data.id as string;
          const approved = await callJson(s, 'POST', `/operator/v1/withdrawals/${id2}/approve`, {}, 'operator');
          assert.equal(approved.data.state, 'approved', approved.raw);
          double.completeWithdrawal(id2);
          await until(
            async () => {
              const r = await callJson(client, 'GET', `/api/v1/withdrawals/${id2}`);
              return r.status === 200 && r.data.state === 'completed' ? r.data : undefined;
            },
            200,
            120_000,
          );
          assert.equal(double.withdrawalsPerOrderId().get(id), 1);
          assert.equal(double.withdrawalsPerOrderId().get(id2), 1);
          assert.deepEqual(await btc(client), { available: FUNDED - 2n * AMOUNT, held: 0n });
        } finally {
          await s.cleanup();
        }
      },
    );
  });
}
