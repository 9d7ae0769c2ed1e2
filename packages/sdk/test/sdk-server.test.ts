import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Permission, Scope } from '@cambio/contract';
import { PDFDocument } from 'pdf-lib';
import type { ManualClock } from '../../server/src/domain/ports.ts';
import { backends, makeHarness, OPERATOR_TOKEN, type Harness } from '../../server/test/harness.ts';
import {
  AuthenticationError,
  Cambio,
  CambioError,
  CambioOperator,
  CambioPortal,
  ClientCannotOperateError,
  DeclarationAlreadyOpenError,
  DestinationAlreadyRegisteredError,
  ConflictError,
  DestinationNotUsableError,
  LedgerNotReconciledError,
  Money,
  NotFoundError,
  PermissionError,
  QuoteAlreadyUsedError,
  QuoteBelowExecutableRateError,
  QuoteExpiredError,
  type FetchLike,
  type LimitsInput,
} from '../src/index.ts';

const ALL_PERMISSIONS: Permission[] = [
  'portal:read',
  'portal:trade',
  'portal:deposit',
  'portal:destinations',
  'portal:withdraw',
  'portal:api_keys',
];
const ALL_SCOPES: Scope[] = ['portal:read', 'portal:trade', 'portal:deposit', 'portal:destinations', 'portal:withdraw'];
const DAY = 86_400_000;

// BTC/USD at 65000.00, spread 1 %, fee 0.1 %: offered rate floor(65000 × 0.99 × 10^2) = 6435000 USD minor per BTC.
const PAIR = { midRate: '65000.00', spreadBps: 100, feeBps: 10, fixedFeeQuoteMinor: 0n, minBaseMinor: 10_000n, maxBaseMinor: 10n ** 12n };

/** A fetch that delivers requests to the server and drops the first success answer matching `when`. */
function losingFirst(when: (method: string, path: string) => boolean) {
  let lost = 0;
  const f: FetchLike = async (url, init) => {
    const res = await fetch(url, init);
    if (lost === 0 && res.ok && when(String(init.method), new URL(url).pathname)) {
      lost++;
      await res.text();
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
    }
    return res;
  };
  return { fetch: f, lost: () => lost };
}

for (const backend of backends()) {
  describe(`SDK against the real server [${backend}]`, () => {
    let h: Harness;
    let base: string;
    let op: CambioOperator;
    const clock = () => h.clock as ManualClock;

    /** A fresh organization with one member and one key, all through the operator SDK. */
    async function newClient(
      o: {
        scopes?: Scope[];
        permissions?: Permission[];
        status?: 'draft' | 'active';
        limits?: LimitsInput;
        funding?: Record<string, bigint>;
        fetch?: FetchLike;
      } = {},
    ) {
      const org = await op.organizations.create({
        name: `Org ${randomBytes(3).toString('hex')}`,
        status: o.status ?? 'active',
        limits: o.limits === undefined ? {} : o.limits,
      });
      const member = await op.members.add(org.id, {
        name: 'Ana',
        email: `ana-${randomBytes(4).toString('hex')}@example.test`,
        permissions: o.permissions ?? ALL_PERMISSIONS,
      });
      const key = await op.keys.issue(member.id, { scopes: o.scopes ?? ALL_SCOPES });
      for (const [asset, amount] of Object.entries(o.funding ?? {}))
        await op.organizations.adjust(org.id, { assetSymbol: asset, amountMinor: amount, reason: 'test funding' });
      const cambio = new Cambio({
        apiKey: key.key,
        baseUrl: base,
        lang: 'en',
        retry: { sleep: async () => {} },
        ...(o.fetch ? { fetch: o.fetch } : {}),
      });
      return { cambio, org, member, key };
    }

    before(async () => {
      h = await makeHarness({ backend, manualClock: true });
      base = await h.app.listen({ port: 0, host: '127.0.0.1' });
      op = new CambioOperator({ token: OPERATOR_TOKEN, baseUrl: base, operatorName: 'sdk-test', lang: 'en' });
      await op.market.putAsset('USD', 2);
      await op.market.putAsset('BTC', 8);
      await op.market.putAsset('EUR', 2);
      await op.market.putPair('BTC', 'USD', PAIR);
      await op.wallets.put('USD', { network: 'wire', address: 'usd-acct-0001' });
      await op.wallets.put('BTC', { network: 'bitcoin', address: 'bc1q-test-0001' });
    });
    after(async () => h?.close());

    test('client, balances and ledger: typed records, bigint amounts, one page or every page', async () => {
      const { cambio, org } = await newClient({ scopes: ['portal:read'], funding: { USD: 100n, BTC: 2n * 10n ** 8n } });
      await op.organizations.adjust(org.id, { assetSymbol: 'USD', amountMinor: 250n, reason: 'second' });
      await op.organizations.adjust(org.id, { assetSymbol: 'USD', amountMinor: -50n, reason: 'correction' });
      assert.deepEqual(await cambio.client.get(), {
        id: org.id,
        name: org.name,
        status: 'active',
        canOperate: true,
        permissions: ['portal:read'],
        limits: [],
      });
      assert.deepEqual(await cambio.balances.list(), [
        { assetSymbol: 'BTC', assetDecimals: 8, amountMinor: 200000000n, heldMinor: 0n, totalMinor: 200000000n },
        { assetSymbol: 'USD', assetDecimals: 2, amountMinor: 300n, heldMinor: 0n, totalMinor: 300n },
      ]);
      const first = await cambio.ledger.list({ page: 1, limit: 2 });
      const { asOf, ...rest } = first.pagination;
      assert.deepEqual(rest, { page: 1, limit: 2, total: 4, totalPages: 2 });
      assert.match(String(asOf), /^[A-Za-z0-9_-]{48}$/, "the walk's anchor, opaque");
      assert.deepEqual(
        first.items.map((e) => [e.kind, e.assetSymbol, e.amountMinor]),
        [
          ['adjustment', 'USD', -50n],
          ['adjustment', 'USD', 250n],
        ],
      );
      // Entries made during a walk do not shift it: later pages are read as of the first one.
      const all = [];
      for await (const e of cambio.ledger.iterate({ limit: 3 })) {
        if (all.length === 0) await op.organizations.adjust(org.id, { assetSymbol: 'USD', amountMinor: 7n, reason: 'during the walk' });
        all.push(e);
      }
      assert.deepEqual(
        all.map((e) => e.amountMinor),
        [-50n, 250n, 200000000n, 100n],
      );
      assert.equal(Money.from(all[0]!).toString(), '-0.50 USD');
    });

    test('what a client can trade and its limits; one record by id; cancel; the list filters; the ledger as CSV', async () => {
      const { cambio, org } = await newClient({ funding: { BTC: 3n * 10n ** 8n }, limits: { BTC: { maxOrderMinor: 2n * 10n ** 8n } } });
      assert.deepEqual(await cambio.market.pairs(), [
        { baseSymbol: 'BTC', quoteSymbol: 'USD', baseDecimals: 8, quoteDecimals: 2, minBaseMinor: 10_000n, maxBaseMinor: 10n ** 12n },
      ]);
      assert.deepEqual((await cambio.client.get()).limits, [
        { assetSymbol: 'BTC', assetDecimals: 8, maxOrderMinor: 200_000_000n, maxWithdrawalMinor: null },
      ]);

      const q = await cambio.quotes.create({ baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: 10n ** 8n });
      assert.deepEqual(await cambio.quotes.get(q.id), q);
      const first = (await cambio.orders.create({ quoteId: q.id })).data;
      const got = await cambio.orders.get(first.id);
      assert.equal(got.state, 'pending_approval');
      assert.equal(got.base.amountMinor, 10n ** 8n);
      clock().advance(60_000);
      const split = new Date(clock().now());
      const q2 = await cambio.quotes.create({ baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: 5n * 10n ** 7n });
      const second = (await cambio.orders.create({ quoteId: q2.id })).data;
      const cancelled = await cambio.orders.cancel(second.id);
      assert.equal(cancelled.state, 'cancelled');
      await assert.rejects(cambio.orders.cancel(second.id), (e: unknown) => e instanceof ConflictError && e.status === 409);
      assert.deepEqual(
        (await cambio.balances.list()).find((b) => b.assetSymbol === 'BTC'),
        { assetSymbol: 'BTC', assetDecimals: 8, amountMinor: 2n * 10n ** 8n, heldMinor: 10n ** 8n, totalMinor: 3n * 10n ** 8n },
        'the cancelled hold is released',
      );
      await assert.rejects(cambio.orders.get('ord_nope'), NotFoundError);

      assert.deepEqual(
        (await cambio.orders.list({ state: 'cancelled' })).items.map((o) => o.id),
        [second.id],
      );
      assert.deepEqual(
        (await cambio.orders.list({ createdTo: split })).items.map((o) => o.id),
        [first.id],
      );
      const walked = [];
      for await (const o of cambio.orders.iterate({ state: 'pending_approval', createdFrom: split.toISOString() })) walked.push(o.id);
      assert.deepEqual(walked, [], 'the one pending order was created before the split');
      assert.equal((await cambio.ledger.list({ assetSymbol: 'USD' })).items.length, 0);
      assert.equal((await cambio.withdrawals.list({ state: 'completed' })).items.length, 0);
      assert.equal((await cambio.deposits.list({ state: 'credited', createdFrom: split })).items.length, 0);

      await op.organizations.adjust(org.id, { assetSymbol: 'BTC', amountMinor: -12_300n, reason: '=fee, "Q1"' });
      const file = await cambio.ledger.csv({ assetSymbol: 'BTC', createdFrom: split });
      const lines = file.split('\r\n');
      assert.equal(lines[0], 'createdAt,id,entryId,kind,account,assetSymbol,assetDecimals,amount,amountMinor,referenceId,memo');
      assert.deepEqual(
        lines.slice(1, -1).map((l) => l.split(',').slice(3, 9)),
        [
          ['order_hold', 'available', 'BTC', '8', '-0.50000000', '-50000000'],
          ['order_hold', 'held', 'BTC', '8', '0.50000000', '50000000'],
          ['order_release', 'held', 'BTC', '8', '-0.50000000', '-50000000'],
          ['order_release', 'available', 'BTC', '8', '0.50000000', '50000000'],
          ['adjustment', 'available', 'BTC', '8', '-0.00012300', '-12300'],
        ],
      );
      assert.ok(file.endsWith(',"\'=fee, ""Q1"""\r\n'), file);
    });

    test('valuation, balance history and statements: bigint values, the CSV as text, the PDF as bytes', async () => {
      const { cambio } = await newClient({ scopes: ['portal:read'], funding: { USD: 100n, BTC: 2n * 10n ** 8n, EUR: 500n } });
      const v = await cambio.valuation.get();
      assert.equal(v.reportingCurrency, 'USD');
      // 2 BTC at floor(65000 × 0.99 × 100) = 6435000 cents each, plus 1.00 USD; EUR has no pair.
      assert.deepEqual(
        v.balances.map((b) => [b.assetSymbol, b.valueMinor]),
        [
          ['BTC', 12_870_000n],
          ['EUR', null],
          ['USD', 100n],
        ],
      );
      assert.equal(v.totalValueMinor, 12_870_100n);
      assert.deepEqual(v.unpriced, ['EUR']);
      const history = await cambio.valuation.history(3);
      assert.deepEqual(
        history.assets.find((a) => a.assetSymbol === 'BTC')!.points.map((p) => p.closingMinor),
        [0n, 0n, 2n * 10n ** 8n],
      );

      const month = clock().now().toISOString().slice(0, 7);
      const csv = await cambio.statements.download('USD', month, { format: 'csv', lang: 'en' });
      assert.match(csv, /^Date \(UTC\),Description,Reference,Entry,Amount,Balance,Amount \(minimum units\),Balance \(minimum units\)\r\n/);
      assert.match(csv, /,Adjustment,test funding,[^,]+,1\.00,1\.00,100,100\r\n/);
      assert.match(csv, /,Closing balance,,,,1\.00,,100\r\n$/);
      const pdf = await cambio.statements.download('USD', month, { format: 'pdf' });
      assert.ok(pdf instanceof Uint8Array);
      assert.equal(Buffer.from(pdf.subarray(0, 5)).toString('latin1'), '%PDF-');
      assert.equal((await PDFDocument.load(pdf)).getPageCount(), 1, 'the bytes arrive whole');
      const bad = await cambio.statements.download('USD', '2026-13', { format: 'csv' }).then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(bad instanceof CambioError);
      assert.deepEqual([bad.status, bad.code], [422, 'statements.month_malformed']);
    });

    test("the organization's policy and approvals through CambioPortal: bigint thresholds, a change that waits, approved by another member", async () => {
      const { org } = await newClient();
      /** A member of the organization signed in with the portal client (the cookie kept by this fetch, as a browser would). */
      const person = async (name: string) => {
        const m = await h.op('POST', `/organizations/${org.id}/members`, {
          name,
          email: `${name.toLowerCase()}-${randomBytes(3).toString('hex')}@example.test`,
          permissions: ['portal:read', 'portal:policy', 'portal:approve'],
        });
        let cookie = '';
        const fetchWithSession: FetchLike = async (url, init) => {
          const headers = new Headers(init.headers);
          headers.set('origin', new URL(base).origin);
          if (cookie) headers.set('cookie', cookie);
          const r = await fetch(url, { ...init, headers });
          const set = r.headers.getSetCookie().find((c) => c.startsWith('cambio_member='));
          if (set) cookie = set.split(';')[0]!;
          return r;
        };
        const portal = new CambioPortal({ baseUrl: base, lang: 'en', fetch: fetchWithSession });
        const token = (m.body.data.invitation.url as string).split('#')[1]!;
        await portal.session.acceptInvitation({ token, password: 'correct horse battery 42' });
        return { portal, id: m.body.data.id as string };
      };
      const ana = await person('Ana');
      const ben = await person('Ben');
      const set = await ana.portal.policy.put([
        { action: 'policy', approvals: 1 },
        { action: 'withdrawal', assetSymbol: 'USD', fromAmountMinor: 10n ** 30n, approvals: 2 },
      ]);
      assert.equal(set.applied, true);
      const read = await ben.portal.policy.get();
      assert.deepEqual(read.rules, [
        { action: 'policy', assetSymbol: null, fromAmountMinor: null, approvals: 1 },
        { action: 'withdrawal', assetSymbol: 'USD', fromAmountMinor: 10n ** 30n, approvals: 2 },
      ]);
      assert.equal(read.updatedBy?.id, ana.id);
      // The rules now ask one more member to agree to a change of them: the change waits.
      const pending = await ana.portal.policy.put([]);
      assert.equal(pending.applied, false);
      if (pending.applied) return;
      assert.equal(pending.state, 'pending_approval');
      const waiting = await ben.portal.approvals.list({ state: 'waiting' });
      assert.deepEqual(
        waiting.map((w) => [w.kind, w.id, w.requestedBy.id, w.approvals.required, w.money]),
        [['policy', pending.id, ana.id, 1, null]],
      );
      await assert.rejects(
        ana.portal.approvals.approve('policy', pending.id),
        (e: CambioError) => e.code === 'approvals.own_request' && e.status === 409,
      );
      const done = await ben.portal.approvals.approve('policy', pending.id);
      assert.deepEqual([done.state, done.approvals.waitingFor, done.approvals.given.map((g) => g.name)], ['applied', 'operator', ['Ben']]);
      assert.deepEqual((await ana.portal.policy.get()).rules, []);
      assert.deepEqual(await ben.portal.approvals.list(), []);
      await assert.rejects(
        ben.portal.approvals.reject('policy', pending.id, { reason: 'late' }),
        (e: CambioError) => e.code === 'approvals.not_waiting',
      );
    });

    test('errors carry status, code and traceId: 401, 403 scope, 403 cannot operate (quotes still work)', async () => {
      const bad = new Cambio({ apiKey: 'cmb_live_nope.nopenopenopenope', baseUrl: base });
      const e401 = await bad.client.get().then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(e401 instanceof AuthenticationError);
      assert.equal(e401.code, 'auth.unauthenticated');
      assert.match(String(e401.traceId), /^[0-9a-f-]{36}$/);

      const { cambio } = await newClient({ scopes: ['portal:trade'] });
      const e403 = await cambio.balances.list().then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(e403 instanceof PermissionError && !(e403 instanceof ClientCannotOperateError));
      assert.equal(e403.code, 'auth.scope_missing');

      const draft = await newClient({ status: 'draft' });
      await assert.rejects(draft.cambio.deposits.wallets(), (e: unknown) => e instanceof ClientCannotOperateError && e.status === 403);
      const q = await draft.cambio.quotes.create({ baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: 10n ** 8n });
      assert.equal(q.amountQuoteMinor, 6435000n);
    });

    test('the operator reduces a role or revokes a key: the SDK reports it on the next call', async () => {
      const { cambio, member, key } = await newClient({ scopes: ['portal:read', 'portal:trade'] });
      await op.members.update(member.id, { permissions: ['portal:trade', 'portal:api_keys'] });
      assert.deepEqual((await cambio.client.get()).permissions, ['portal:trade']);
      await assert.rejects(cambio.balances.list(), PermissionError);
      await op.keys.revoke(key.id);
      await assert.rejects(cambio.client.get(), AuthenticationError);
    });

    test('quotes and orders: single use, expiry, below executable rate, and a lost order response', async () => {
      const lossy = losingFirst((m, p) => m === 'POST' && p === '/api/v1/orders');
      const { cambio } = await newClient({ funding: { BTC: 10n ** 8n }, fetch: lossy.fetch });
      const q = await cambio.quotes.create({ baseSymbol: 'BTC', quoteSymbol: 'USD', amountQuoteMinor: 3217500n });
      assert.deepEqual([q.amountBaseMinor, q.amountQuoteMinor, q.rateQuoteMinor], [50000000n, 3217500n, 6435000n]);
      assert.deepEqual(q.base, { assetSymbol: 'BTC', assetDecimals: 8, amountMinor: 50000000n });

      // The first POST /orders reaches the server but its answer is lost: the resend carries the same
      // Idempotency-Key, so the server answers the order the lost attempt created (replayed).
      const r = await cambio.orders.create({ quoteId: q.id });
      assert.equal(lossy.lost(), 1);
      assert.equal(r.outcome, 'resent_after_timeout');
      assert.equal(r.replayed, true);
      assert.equal(r.data.quoteId, q.id);
      assert.equal(r.data.state, 'pending_approval');
      const page = await cambio.orders.list();
      assert.equal(page.pagination.total, 1, 'exactly one order');
      assert.deepEqual(
        (await cambio.balances.list()).find((b) => b.assetSymbol === 'BTC'),
        { assetSymbol: 'BTC', assetDecimals: 8, amountMinor: 50000000n, heldMinor: 50000000n, totalMinor: 100000000n },
      );

      await assert.rejects(
        cambio.orders.create({ quoteId: q.id }),
        (e: unknown) => e instanceof QuoteAlreadyUsedError && e.code === 'orders.quote_already_used',
      );
      const q2 = await cambio.quotes.create({ baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: 10_000n });
      clock().advance(h.config.quoteTtlMs + 1);
      await assert.rejects(cambio.orders.create({ quoteId: q2.id }), (e: unknown) => e instanceof QuoteExpiredError && e.status === 410);

      await op.market.putPair('BTC', 'EUR', { ...PAIR, fixedFeeQuoteMinor: 10n ** 12n });
      await assert.rejects(
        cambio.quotes.create({ baseSymbol: 'BTC', quoteSymbol: 'EUR', amountBaseMinor: 10n ** 6n }),
        (e: unknown) => e instanceof QuoteBelowExecutableRateError && e.status === 422,
      );
    });

    test('deposits: one open declaration (409 names the class), and a lost declaration answer is recovered', async () => {
      const lossy = losingFirst((m, p) => m === 'POST' && p === '/api/v1/deposits/declarations');
      const { cambio } = await newClient({ fetch: lossy.fetch });
      assert.equal(await cambio.deposits.openDeclaration(), null);
      const d = await cambio.deposits.declare({ assetSymbol: 'BTC', assetDecimals: 8, declaredAmountMinor: 1_000_000n });
      assert.equal(lossy.lost(), 1);
      assert.equal(d.outcome, 'resent_after_timeout', 'the resend, with the same key, is answered with the lost declaration');
      assert.equal(d.replayed, true);
      assert.equal(d.data.declaredAmountMinor, 1_000_000n);
      assert.ok(d.data.expectedAmountMinor > 1_000_000n && d.data.expectedAmountMinor < 1_010_000n);
      assert.equal(
        d.data.expectedAmount,
        Money.from({ assetSymbol: 'BTC', assetDecimals: 8, amountMinor: d.data.expectedAmountMinor }).toDecimal(),
      );
      await assert.rejects(
        cambio.deposits.declare({ assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: 10_000n }),
        DeclarationAlreadyOpenError,
      );
      assert.equal((await cambio.deposits.openDeclaration())?.id, d.data.id);
    });

    test('a lost withdrawal answer: the SDK reads GET /withdrawals, finds it, and does not send it twice', async () => {
      const lossy = losingFirst((m, p) => m === 'POST' && p === '/api/v1/withdrawals');
      const { cambio } = await newClient({ funding: { USD: 500_000n }, fetch: lossy.fetch });
      const dest = await cambio.withdrawals.registerBankDestination({
        label: 'Payroll',
        assetSymbol: 'USD',
        bankName: 'Banco Uno',
        accountKind: 'checking',
        accountNumber: '0001-2345-6789',
        holderName: 'Org Holder',
        holderDocument: 'J-12345678',
      });
      assert.equal(dest.outcome, 'created');
      assert.equal(dest.data.usable, false);
      await assert.rejects(
        cambio.withdrawals.registerBankDestination({
          label: 'Again',
          assetSymbol: 'USD',
          bankName: 'Banco Uno',
          accountKind: 'checking',
          accountNumber: '0001-2345-6789',
          holderName: 'Org Holder',
          holderDocument: 'J-12345678',
        }),
        DestinationAlreadyRegisteredError,
      );
      const body = { destinationId: dest.data.id, assetSymbol: 'USD', assetDecimals: 2, amountMinor: 120_000n };
      await assert.rejects(cambio.withdrawals.create(body), DestinationNotUsableError);

      clock().advance(h.config.destinationCooldownMs + 1);
      await op.destinations.registerInMarket(dest.data.id);
      const r = await cambio.withdrawals.create(body);
      assert.equal(lossy.lost(), 1);
      assert.equal(r.outcome, 'found_after_timeout');
      assert.equal(r.data.money.amountMinor, 120_000n);
      assert.equal((await cambio.withdrawals.list()).pagination.total, 1, 'exactly one withdrawal');
      assert.deepEqual((await cambio.balances.list())[0], {
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: 380_000n,
        heldMinor: 120_000n,
        totalMinor: 500_000n,
      });
    });

    test('not reconciled: money-moving calls raise LedgerNotReconciledError, reads and quotes go on', async () => {
      const { cambio } = await newClient({ funding: { BTC: 10n ** 8n } });
      const q = await cambio.quotes.create({ baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: 10n ** 6n });
      const run = await op.reconciliation.run({ marketBalances: [{ assetSymbol: 'BTC', amountMinor: 1n }] });
      assert.equal(run.matched, false);
      try {
        await assert.rejects(
          cambio.orders.create({ quoteId: q.id }),
          (e: unknown) => e instanceof LedgerNotReconciledError && e.status === 409,
        );
        assert.equal((await cambio.balances.list())[0]!.amountMinor, 10n ** 8n);
      } finally {
        await op.reconciliation.resolve();
      }
      assert.equal((await cambio.orders.create({ quoteId: q.id })).data.state, 'pending_approval');
    });

    test('the whole journey through the SDK alone: trade, deposit, withdraw, each approved at the operator', async () => {
      const { cambio, org } = await newClient({ funding: { BTC: 10n ** 8n } });
      const usd = async () => (await cambio.balances.list()).find((b) => b.assetSymbol === 'USD');

      // quote → order → approve via operator → balances
      const q = await cambio.quotes.create({
        baseSymbol: 'BTC',
        quoteSymbol: 'USD',
        amountBaseMinor: Money.parse('0.5', { assetSymbol: 'BTC', assetDecimals: 8 }).amountMinor,
      });
      assert.equal(q.amountQuoteMinor, 3_217_500n); // floor(0.5 BTC × 6435000)
      const order = (await cambio.orders.create({ quoteId: q.id })).data;
      assert.equal(order.state, 'pending_approval');
      assert.deepEqual((await cambio.balances.list())[0], {
        assetSymbol: 'BTC',
        assetDecimals: 8,
        amountMinor: 50_000_000n,
        heldMinor: 50_000_000n,
        totalMinor: 100_000_000n,
      });
      const approved = await op.orders.approve(order.id);
      assert.equal(approved.state, 'completed');
      assert.equal(approved.organizationId, org.id);
      assert.equal(approved.proceedsQuoteMinor, 3_246_750n); // floor(0.5 × 65000 × 0.999 × 10^2): the platform keeps the difference
      assert.deepEqual(await cambio.balances.list(), [
        { assetSymbol: 'BTC', assetDecimals: 8, amountMinor: 50_000_000n, heldMinor: 0n, totalMinor: 50_000_000n },
        { assetSymbol: 'USD', assetDecimals: 2, amountMinor: 3_217_500n, heldMinor: 0n, totalMinor: 3_217_500n },
      ]);
      assert.equal((await cambio.orders.list()).items[0]!.state, 'completed');

      // declare → arrival → credited
      const wallets = await cambio.deposits.wallets();
      const usdWallet = wallets.find((w) => w.assetSymbol === 'USD')!;
      assert.equal(usdWallet.network, 'wire');
      const decl = (await cambio.deposits.declare({ assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: 10_000n })).data;
      assert.equal(decl.state, 'open');
      const arrival = await op.deposits.record({
        assetSymbol: 'USD',
        network: usdWallet.network,
        amountMinor: decl.expectedAmountMinor,
        txid: `tx-${randomBytes(6).toString('hex')}`,
      });
      assert.equal(arrival.state, 'credited');
      assert.equal(arrival.organizationId, org.id);
      const deposits = await cambio.deposits.list();
      assert.deepEqual(
        deposits.items.map((d) => [d.state, d.money.amountMinor, d.declarationId]),
        [['credited', decl.expectedAmountMinor, decl.id]],
      );
      assert.equal(await cambio.deposits.openDeclaration(), null);
      const afterDeposit = 3_217_500n + decl.expectedAmountMinor;
      assert.equal((await usd())?.amountMinor, afterDeposit);

      // register → usable → withdraw → approve
      const dest = (
        await cambio.withdrawals.registerBankDestination({
          label: 'Main account',
          assetSymbol: 'USD',
          bankName: 'Banco Dos',
          accountKind: 'savings',
          accountNumber: '9876543210',
          holderName: 'Org SA',
          holderDocument: 'J-87654321',
        })
      ).data;
      assert.equal((await cambio.withdrawals.destinations()).find((d) => d.id === dest.id)?.usable, false);
      clock().advance(h.config.destinationCooldownMs + DAY);
      assert.equal(
        (await cambio.withdrawals.destinations()).find((d) => d.id === dest.id)?.usable,
        false,
        'the cooldown alone is not enough',
      );
      await op.destinations.registerInMarket(dest.id);
      assert.equal((await cambio.withdrawals.destinations()).find((d) => d.id === dest.id)?.usable, true);
      const w = await cambio.withdrawals.create({ destinationId: dest.id, assetSymbol: 'USD', assetDecimals: 2, amountMinor: 1_000_000n });
      assert.equal(w.outcome, 'created');
      assert.equal(w.data.state, 'pending_approval');
      assert.deepEqual(await usd(), {
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: afterDeposit - 1_000_000n,
        heldMinor: 1_000_000n,
        totalMinor: afterDeposit,
      });
      const pending = await op.withdrawals.list({ state: 'pending_approval', limit: 100 });
      assert.ok(pending.items.some((x) => x.id === w.data.id));
      assert.equal((await op.withdrawals.approve(w.data.id, 'checked by the desk')).state, 'completed');
      assert.deepEqual(await usd(), {
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: afterDeposit - 1_000_000n,
        heldMinor: 0n,
        totalMinor: afterDeposit - 1_000_000n,
      });
      const listed = [];
      for await (const x of cambio.withdrawals.iterate()) listed.push(x);
      assert.deepEqual(
        listed.map((x) => [x.id, x.state, x.money.amountMinor]),
        [[w.data.id, 'completed', 1_000_000n]],
      );
    });

    test('the operator client: organizations and limits, rejections, unattributed arrivals, wallets, pairs, reconciliation state, audit', async () => {
      const org = await op.organizations.create({ name: 'Limits Co' });
      assert.deepEqual([org.status, org.canOperate, org.limits], ['draft', false, null]);
      const updated = await op.organizations.update(org.id, { status: 'active', limits: { BTC: { maxOrderMinor: 10n ** 30n } } });
      assert.equal(updated.canOperate, true);
      assert.deepEqual((await op.organizations.get(org.id)).limits, { BTC: { maxOrderMinor: 10n ** 30n } });

      // A rejected order and a rejected withdrawal give their holds back.
      const { cambio, org: o2 } = await newClient({ funding: { BTC: 10n ** 8n, USD: 50_000n } });
      const q = await cambio.quotes.create({ baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: 10n ** 7n });
      const order = (await cambio.orders.create({ quoteId: q.id })).data;
      const rejected = await op.orders.reject(order.id, 'outside trading hours');
      assert.deepEqual([rejected.state, rejected.reason, rejected.proceedsQuoteMinor], ['rejected', 'outside trading hours', null]);
      assert.equal((await cambio.orders.list()).items[0]!.reason, 'outside trading hours');
      const dest = (
        await cambio.withdrawals.registerBankDestination({
          label: 'Ops',
          assetSymbol: 'USD',
          bankName: 'Banco Tres',
          accountKind: 'savings',
          accountNumber: '5555666677',
          holderName: 'Ops SA',
          holderDocument: 'J-5555666',
        })
      ).data;
      clock().advance(h.config.destinationCooldownMs + 1);
      assert.equal((await op.destinations.list({ organizationId: o2.id })).items[0]!.usable, false);
      assert.equal((await op.destinations.registerInMarket(dest.id)).usable, true);
      const w = (await cambio.withdrawals.create({ destinationId: dest.id, assetSymbol: 'USD', assetDecimals: 2, amountMinor: 20_000n }))
        .data;
      assert.equal((await op.withdrawals.reject(w.id)).state, 'rejected');
      assert.deepEqual(await cambio.balances.list(), [
        { assetSymbol: 'BTC', assetDecimals: 8, amountMinor: 10n ** 8n, heldMinor: 0n, totalMinor: 10n ** 8n },
        { assetSymbol: 'USD', assetDecimals: 2, amountMinor: 50_000n, heldMinor: 0n, totalMinor: 50_000n },
      ]);

      // An arrival that matches no declaration waits, unattributed, until a person credits it.
      const txid = `tx-${randomBytes(6).toString('hex')}`;
      const stray = await op.deposits.record({ assetSymbol: 'USD', network: 'wire', amountMinor: 777n, txid });
      assert.deepEqual([stray.state, stray.organizationId], ['unattributed', null]);
      assert.ok((await op.deposits.list({ state: 'unattributed', limit: 100 })).items.some((d) => d.id === stray.id));
      assert.equal((await op.deposits.attribute(stray.id, o2.id)).state, 'credited');
      assert.equal((await op.deposits.get(stray.id)).organizationId, o2.id);
      assert.equal((await cambio.balances.list())[1]!.amountMinor, 50_777n);

      // Wallets and pairs come and go; clients see it at once.
      await op.market.putAsset('ETH', 18);
      await op.wallets.put('ETH', { network: 'ethereum', address: '0xabc' });
      assert.ok((await op.wallets.list()).some((x) => x.assetSymbol === 'ETH'));
      assert.ok((await cambio.deposits.wallets()).some((x) => x.assetSymbol === 'ETH'));
      await op.wallets.delete('ETH');
      assert.ok(!(await cambio.deposits.wallets()).some((x) => x.assetSymbol === 'ETH'));
      assert.deepEqual(
        (await op.market.assets()).find((a) => a.symbol === 'ETH'),
        { symbol: 'ETH', decimals: 18 },
      );
      const pair = await op.market.putPair('ETH', 'USD', {
        midRate: '3000',
        spreadBps: 0,
        feeBps: 0,
        fixedFeeQuoteMinor: 0n,
        minBaseMinor: 1n,
        maxBaseMinor: 10n ** 30n,
      });
      assert.deepEqual([pair.rateQuoteMinor, pair.maxBaseMinor], [300_000n, 10n ** 30n]);
      assert.ok((await op.market.pairs()).some((p) => p.baseSymbol === 'ETH'));
      await op.market.deletePair('ETH', 'USD');
      await assert.rejects(
        cambio.quotes.create({ baseSymbol: 'ETH', quoteSymbol: 'USD', amountBaseMinor: 10n ** 18n }),
        (e: unknown) => e instanceof CambioError && e.code === 'quotes.pair_not_priced',
      );

      assert.equal((await op.reconciliation.get()).reconciled, true);
      const audit = await op.audit.list({ subjectId: order.id });
      assert.ok(
        audit.items.some((a) => a.actor === 'bootstrap:sdk-test'),
        'decisions by the bootstrap token are audited under the X-Operator name',
      );
    });
  });
}
