import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import type { ManualClock } from '../src/domain/ports.ts';
import { backends, btcUsdMarket, makeHarness, seedOrg, type Harness, type SeededOrg } from './harness.ts';
import { pdfText } from './pdf-text.ts';

/**
 * Monthly statements (docs/api-guide.md, Statements): a deposit, an order and a withdrawal across two
 * months, read back as CSV and PDF with exact figures; opening plus the month's entries is the closing;
 * holds and releases move nothing of the total and are not lines; bad months and assets are refused.
 */
const HEADER_EN = 'Date (UTC),Description,Reference,Entry,Amount,Balance,Amount (minimum units),Balance (minimum units)\r\n';
const HEADER_ES = 'Fecha (UTC),Concepto,Referencia,Asiento,Importe,Saldo,Importe (unidades mínimas),Saldo (unidades mínimas)\r\n';

for (const backend of backends()) {
  describe(`statements [${backend}]`, () => {
    let h: Harness;
    let clock: ManualClock;
    let o: SeededOrg;
    let deposited: bigint;
    let orderId: string;
    let withdrawalId: string;
    const entryOf = async (kind: string, asset: string): Promise<string> => {
      const rows = (await h.call(o.key, 'GET', `/ledger?limit=100&assetSymbol=${asset}`)).body.data as Array<{
        kind: string;
        entryId: string;
      }>;
      const row = rows.find((r) => r.kind === kind);
      assert.ok(row, `${kind} ${asset} in the ledger`);
      return row.entryId;
    };
    const statement = (path: string, headers: Record<string, string> = {}) =>
      h.app.inject({ method: 'GET', url: `/api/v1/statements/${path}`, headers: { 'x-api-key': o.key, 'x-lang': 'en', ...headers } });

    before(async () => {
      h = await makeHarness({ backend, manualClock: true, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
      clock = h.clock as ManualClock;
      await btcUsdMarket(h);
      assert.equal((await h.op('PUT', '/wallets/BTC', { network: 'bitcoin', address: 'bc1q-sandbox' })).status, 200);
      o = await seedOrg(h, { name: 'Acme Treasury' });

      // December: 1.5 BTC funded by the operator (the opening balance of January).
      clock.set(new Date('2025-12-20T10:00:00.000Z'));
      assert.equal(
        (await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'BTC', amountMinor: '150000000', reason: 'funding' }))
          .status,
        201,
      );

      // January: a declared deposit arrives; 0.1 BTC sold for 6,467.50 USD (65000 less 0.5%).
      clock.set(new Date('2026-01-05T09:00:00.000Z'));
      const d = await h.call(o.key, 'POST', '/deposits/declarations', {
        assetSymbol: 'BTC',
        assetDecimals: 8,
        declaredAmountMinor: '30000000',
      });
      assert.equal(d.status, 201, d.raw);
      deposited = BigInt(d.body.data.expectedAmountMinor);
      clock.advance(60_000);
      const arrived = await h.call(o.key, 'POST', '/sandbox/deposits', {
        assetSymbol: 'BTC',
        amountMinor: deposited.toString(),
        txid: 'tx-jan',
      });
      assert.equal(arrived.status, 201, arrived.raw);
      clock.set(new Date('2026-01-10T12:00:00.000Z'));
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '10000000' });
      assert.equal(q.status, 201, q.raw);
      assert.equal(q.body.data.amountQuoteMinor, '646750');
      const ord = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
      assert.equal(ord.status, 201, ord.raw);
      orderId = ord.body.data.id;
      clock.advance(5000);
      const ok = await h.op('POST', `/orders/${orderId}/approve`);
      assert.equal(ok.body.data.state, 'completed', ok.raw);

      // February: 500.00 USD withdrawn; an order placed and rejected (a hold and its release: no line).
      clock.set(new Date('2026-02-03T08:00:00.000Z'));
      const dest = await h.call(o.key, 'POST', '/withdrawals/destinations/bank', {
        label: 'Main',
        assetSymbol: 'USD',
        bankName: 'Banco Río',
        accountKind: 'checking',
        accountNumber: '77778888',
        holderName: 'Acme SA',
        holderDocument: '30-1',
      });
      assert.equal(dest.status, 201, dest.raw);
      assert.equal((await h.op('POST', `/destinations/${dest.body.data.id}/register-in-market`)).status, 200);
      const w = await h.call(o.key, 'POST', '/withdrawals', {
        destinationId: dest.body.data.id,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '50000',
      });
      assert.equal(w.status, 201, w.raw);
      withdrawalId = w.body.data.id;
      clock.advance(60_000);
      assert.equal((await h.op('POST', `/withdrawals/${withdrawalId}/approve`, { reason: 'wire 1' })).body.data.state, 'completed');
      const q2 = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '20000000' });
      const ord2 = await h.call(o.key, 'POST', '/orders', { quoteId: q2.body.data.id });
      assert.equal((await h.op('POST', `/orders/${ord2.body.data.id}/reject`, { reason: 'no' })).status, 200);

      clock.set(new Date('2026-03-02T10:00:00.000Z'));
    });
    after(async () => h?.close());

    const minorColumns = (csv: string) =>
      csv
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',').slice(-2));

    test('USD in January, CSV in English: opening, the order settled with its running balance, closing; exact lines', async () => {
      const r = await statement('USD/2026-01?format=csv');
      assert.equal(r.statusCode, 200, r.body);
      assert.equal(r.headers['content-type'], 'text/csv; charset=utf-8; header=present');
      assert.equal(r.headers['content-disposition'], `attachment; filename="statement-${o.orgId}-USD-2026-01.csv"`);
      const settled = await entryOf('order_settlement', 'USD');
      assert.equal(
        r.body,
        HEADER_EN +
          '01/01/2026 00:00:00,Opening balance,,,,0.00,,0\r\n' +
          `01/10/2026 12:00:05,Order settled,${orderId},${settled},6467.50,6467.50,646750,646750\r\n` +
          '01/31/2026 23:59:59,Closing balance,,,,6467.50,,646750\r\n',
      );
    });

    test('BTC in January: the deposit and the sale; opening + entries = closing, exact', async () => {
      const r = await statement('BTC/2026-01', { accept: 'text/csv' });
      assert.equal(r.statusCode, 200, r.body);
      const rows = minorColumns(r.body);
      const opening = BigInt(rows[0]![1]!);
      const amounts = rows.slice(1, -1).map((x) => BigInt(x[0]!));
      const closing = BigInt(rows.at(-1)![1]!);
      assert.equal(opening, 150000000n);
      assert.deepEqual(amounts, [deposited, -10000000n]);
      assert.equal(closing, 140000000n + deposited);
      assert.equal(opening + amounts.reduce((a, b) => a + b, 0n), closing, 'opening + Σ entries = closing');
      assert.match(r.body, /\r\n01\/05\/2026 09:01:00,Deposit,/);
      assert.match(r.body, new RegExp(`\r\n01/10/2026 12:00:05,Order settled,${orderId},[^,]+,-0\\.10000000,`));
    });

    test('USD in February in Spanish: the withdrawal paid; the rejected order moved nothing and is no line', async () => {
      const r = await statement('USD/2026-02?format=csv', { 'x-lang': 'es' });
      assert.equal(r.statusCode, 200, r.body);
      assert.equal(r.headers['content-language'], 'es');
      const paid = await entryOf('withdrawal_settlement', 'USD');
      assert.equal(
        r.body,
        HEADER_ES +
          '01/02/2026 00:00:00,Saldo inicial,,,,"6467,50",,646750\r\n' +
          `03/02/2026 08:01:00,Retiro pagado,${withdrawalId},${paid},"-500,00","5967,50",-50000,596750\r\n` +
          '28/02/2026 23:59:59,Saldo final,,,,"5967,50",,596750\r\n',
      );
      const btc = minorColumns((await statement('BTC/2026-02?format=csv')).body);
      assert.equal(btc.length, 2, 'no BTC line in February: the hold and its release net to nothing');
      assert.deepEqual(btc[0], btc[1], 'opening = closing');
    });

    test("the organization's language decides when chosen; ?lang= asks for another", async () => {
      const person = await import('./harness.ts').then((m) => m.signedInMember(h, o.orgId));
      const { withCookie } = await import('./harness.ts');
      const put = await withCookie(h, person.cookie, 'PUT', '/portal/v1/settings/reporting', { language: 'es' });
      assert.equal(put.status, 200, put.raw);
      assert.ok((await statement('USD/2026-01?format=csv')).body.startsWith(HEADER_ES), 'es although the reader asked en');
      assert.ok((await statement('USD/2026-01?format=csv&lang=en')).body.startsWith(HEADER_EN));
      assert.equal((await withCookie(h, person.cookie, 'PUT', '/portal/v1/settings/reporting', { language: null })).status, 200);
      assert.ok((await statement('USD/2026-01?format=csv')).body.startsWith(HEADER_EN));
    });

    test('PDF: one A4 page that pdf-lib loads back, with the organization, the period and every exact figure', async () => {
      const r = await statement('USD/2026-02', { accept: 'application/pdf' });
      assert.equal(r.statusCode, 200, r.body);
      assert.equal(r.headers['content-type'], 'application/pdf');
      assert.equal(r.headers['content-disposition'], `attachment; filename="statement-${o.orgId}-USD-2026-02.pdf"`);
      const bytes = r.rawPayload;
      assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
      const doc = await PDFDocument.load(bytes);
      assert.equal(doc.getPageCount(), 1);
      assert.match(doc.getTitle() ?? '', /^Statement of account — Acme Treasury — USD — February 2026$/);
      const text = pdfText(bytes);
      for (const s of [
        'Statement of account',
        `Acme Treasury (${o.orgId})`,
        'Opening balance',
        '6,467.50 USD',
        'Withdrawal paid',
        withdrawalId,
        '-500.00 USD',
        '5,967.50 USD',
        'Closing balance',
        '02/28/2026 23:59:59',
      ])
        assert.ok(text.includes(s), `the PDF shows ${s}:\n${text}`);

      const es = await statement('USD/2026-02?format=pdf&lang=es');
      const t = pdfText(es.rawPayload);
      for (const s of [
        'Estado de cuenta',
        'febrero de 2026',
        'Saldo inicial',
        '6467,50 USD',
        'Retiro pagado',
        '-500,00 USD',
        '5967,50 USD',
      ])
        assert.ok(t.includes(s), `the Spanish PDF shows ${s}:\n${t}`);
    });

    test('a malformed month, a month not begun, an unlisted asset: 422 with their codes; another key sees only its own', async () => {
      for (const [path, code] of [
        ['USD/2026-13', 'statements.month_malformed'],
        ['USD/26-01', 'statements.month_malformed'],
        ['USD/2026-1', 'statements.month_malformed'],
        ['USD/2026-04', 'statements.month_in_future'],
        ['DOGE/2026-01', 'market.asset_not_listed'],
      ]) {
        const r = await statement(path!);
        assert.equal(r.statusCode, 422, `${path}: ${r.body}`);
        assert.equal(r.json().code, code, path);
      }
      // The current month runs to now.
      const now = await statement('USD/2026-03?format=csv');
      assert.equal(now.statusCode, 200);
      assert.match(now.body, /\r\n03\/02\/2026 10:00:00,Closing balance,,,,5967\.50,,596750\r\n$/);
      const other = await seedOrg(h);
      const theirs = await h.app.inject({
        method: 'GET',
        url: '/api/v1/statements/USD/2026-01?format=csv',
        headers: { 'x-api-key': other.key, 'x-lang': 'en' },
      });
      assert.equal(
        theirs.body,
        HEADER_EN + '01/01/2026 00:00:00,Opening balance,,,,0.00,,0\r\n01/31/2026 23:59:59,Closing balance,,,,0.00,,0\r\n',
      );
      const noKey = await h.app.inject({ method: 'GET', url: '/api/v1/statements/USD/2026-01' });
      assert.equal(noKey.statusCode, 401);
    });

    test('the desk reads the same statement for the organization', async () => {
      const mine = await statement('USD/2026-02?format=csv&lang=en');
      const desk = await h.op('GET', `/organizations/${o.orgId}/statements/USD/2026-02?format=csv&lang=en`);
      assert.equal(desk.status, 200);
      assert.equal(desk.raw, mine.body);
    });
  });
}
