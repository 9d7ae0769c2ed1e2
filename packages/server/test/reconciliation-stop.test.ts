import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { declareDeposit } from '../src/usecases/deposits/declare-deposit.ts';
import { registerDestination } from '../src/usecases/destinations/register-destination.ts';
import { placeOrder } from '../src/usecases/orders/place-order.ts';
import { QuoteIds } from '../src/domain/quotes/quote-id.ts';
import { requestWithdrawal } from '../src/usecases/withdrawals/request-withdrawal.ts';
import { available, backends, held, listAssets, makeHarness, seedOrg, type Harness, type SeededOrg, usableDestination } from './harness.ts';

/**
 * The early check at authentication can be passed a moment before a reconciliation records a
 * mismatch. Each write reads the stop again where it decides, so a request that authenticated
 * before the stop still writes nothing after it.
 */
for (const backend of backends()) {
  describe(`the reconciliation stop is decided inside every money-moving write [${backend}]`, () => {
    let h: Harness;
    let o: SeededOrg;
    let dst: string;
    before(async () => {
      h = await makeHarness({ backend, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
      await listAssets(h, { USD: 2, BTC: 8 });
      await h.op('PUT', '/market/pairs/BTC/USD', {
        midRate: '60000',
        spreadBps: 50,
        feeBps: 10,
        fixedFeeQuoteMinor: '0',
        minBaseMinor: '1000',
        maxBaseMinor: '100000000',
      });
      await h.op('PUT', '/wallets/USD', { network: 'wire', address: 'sandbox-usd-0001' });
      o = await seedOrg(h, { balances: { USD: 100000n, BTC: 50000000n } });
      dst = await usableDestination(h, o.key);
    });
    after(async () => h?.close());

    /** What authentication saw is gone: the mismatch is committed between the check and the write. */
    const stopBehindTheCheck = () => sql`update platform_state set reconciled = false where id = 1`.execute(h.store.db);
    const refusedAsStopped = async (write: Promise<unknown>) => {
      await assert.rejects(write, (e: { code?: string }) => e.code === 'ledger.ledger_not_reconciled');
    };

    test('an order, a withdrawal, a declaration and a destination write nothing once the stop is recorded', async () => {
      const quote = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
      assert.equal(quote.status, 201, quote.raw);
      const org = (await h.store.organizations.get(o.orgId))!;
      await stopBehindTheCheck();
      try {
        await refusedAsStopped(placeOrder({ ...h.deps, quoteIds: new QuoteIds(h.deps.secret, h.deps.ids) }, org, quote.body.data.id));
        await refusedAsStopped(requestWithdrawal(h.deps, org, { destinationId: dst, assetSymbol: 'USD', assetDecimals: 2, amount: 1000n }));
        await refusedAsStopped(
          declareDeposit(h.deps, o.orgId, { assetSymbol: 'USD', assetDecimals: 2, declaredAmount: 100000n, ttlMs: 60_000 }),
        );
        await refusedAsStopped(
          registerDestination(h.deps, o.orgId, {
            id: 'dst_second',
            label: 'Second',
            assetSymbol: 'USD',
            bankName: 'Banco Río',
            accountKind: 'savings',
            holderName: 'Acme SA',
            accountNumberEnc: 'x',
            holderDocumentEnc: 'y',
            fingerprint: 'fp-second',
            summary: 'Banco Río · savings ···· 9999',
            cooldownUntil: new Date(0),
            kind: 'bank',
            network: null,
            address: null,
            memo: null,
          }),
        );
      } finally {
        assert.equal((await h.op('POST', '/reconciliation/resolve')).status, 200);
      }
      // Nothing was held, consumed, declared or registered.
      assert.equal(await available(h, o.key, 'BTC'), 50000000n);
      assert.equal(await held(h, o.key, 'BTC'), 0n);
      assert.equal(await held(h, o.key, 'USD'), 0n);
      assert.equal((await h.call(o.key, 'GET', '/orders')).body.pagination.total, 0);
      assert.equal((await h.call(o.key, 'GET', '/withdrawals')).body.pagination.total, 0);
      assert.equal((await h.call(o.key, 'GET', '/deposits/open-declaration')).body.data, null);
      assert.equal((await h.call(o.key, 'GET', '/withdrawals/destinations')).body.data.length, 1);
      // The quote was not consumed: once resolved, it is still accepted.
      const order = await h.call(o.key, 'POST', '/orders', { quoteId: quote.body.data.id });
      assert.equal(order.status, 201, order.raw);
      assert.equal(await held(h, o.key, 'BTC'), 1000000n);
    });
  });
}
