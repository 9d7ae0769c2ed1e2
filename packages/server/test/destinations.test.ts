import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { openDestination } from '../src/domain/destinations/register.ts';
import { DestinationSealer } from '../src/domain/destinations/sealer.ts';
import type { ManualClock } from '../src/domain/ports.ts';
import { backends, listAssets, makeHarness, SECRET, seedOrg, type Harness } from './harness.ts';

const COOLDOWN = 86_400_000;
const ACCOUNT = '0001 2345-6789 6789';
const ACCOUNT_KEY = '0001234567896789';
const DOCUMENT = '20-31415926-5';

const body = (over: Record<string, unknown> = {}) => ({
  label: 'Payroll',
  assetSymbol: 'USD',
  bankName: 'Banco Nación',
  accountKind: 'checking',
  accountNumber: ACCOUNT,
  holderName: 'Ana Pérez',
  holderDocument: DOCUMENT,
  ...over,
});

/** No form of the account number or the document in a text (the summary's last four digits are allowed). */
function assertNoSecrets(text: string) {
  for (const s of [ACCOUNT, ACCOUNT_KEY, ACCOUNT_KEY.slice(0, 8), DOCUMENT, '31415926']) assert.ok(!text.includes(s), `"${s}" leaked`);
}

for (const backend of backends()) {
  describe(`withdrawal destinations [${backend}]`, () => {
    let h: Harness;
    let clock: ManualClock;
    before(async () => {
      h = await makeHarness({ backend, manualClock: true, env: { CAMBIO_DESTINATION_COOLDOWN_MS: String(COOLDOWN) } });
      clock = h.clock as ManualClock;
      await listAssets(h, { USD: 2, BTC: 8 });
    });
    after(async () => h?.close());

    test('registration answers the masked destination, not usable yet, and stores the account encrypted', async () => {
      const o = await seedOrg(h);
      const r = await h.call(o.key, 'POST', '/withdrawals/destinations/bank', body());
      assert.equal(r.status, 201, r.raw);
      const d = r.body.data;
      assert.deepEqual(Object.keys(d).sort(), ['assetSymbol', 'createdAt', 'id', 'label', 'summary', 'usable']);
      assert.equal(d.label, 'Payroll');
      assert.equal(d.assetSymbol, 'USD');
      assert.equal(d.summary, 'Banco Nación · checking ···· 6789');
      assert.equal(d.usable, false);
      assertNoSecrets(r.raw);

      const row = await h.store.db.selectFrom('withdrawal_destinations').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow();
      assertNoSecrets(JSON.stringify(row));
      const opened = openDestination(new DestinationSealer(SECRET), {
        id: row.id,
        organizationId: row.organization_id,
        accountNumberEnc: row.account_number_enc,
        holderDocumentEnc: row.holder_document_enc,
      });
      assert.deepEqual(opened, { accountNumber: ACCOUNT_KEY, holderDocument: DOCUMENT });

      const list = await h.call(o.key, 'GET', '/withdrawals/destinations');
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.data, [d]);
      assert.equal(list.body.pagination, null, 'an array, as the spec gives it: every destination, no page');
      assertNoSecrets(list.raw);
      const opList = await h.op('GET', `/destinations?organizationId=${o.orgId}`);
      assert.equal(opList.body.data[0].holderName, 'Ana Pérez');
      assertNoSecrets(opList.raw);
    });

    test('every field is required and validated, each refusal with its code', async () => {
      const o = await seedOrg(h);
      const cases: Array<[string, unknown, number, string]> = [
        ['label missing', body({ label: undefined }), 422, 'request.validation_failed'],
        ['assetSymbol missing', body({ assetSymbol: undefined }), 422, 'request.validation_failed'],
        ['bankName missing', body({ bankName: undefined }), 422, 'request.validation_failed'],
        ['accountKind missing', body({ accountKind: undefined }), 422, 'request.validation_failed'],
        ['accountNumber missing', body({ accountNumber: undefined }), 422, 'request.validation_failed'],
        ['holderName missing', body({ holderName: undefined }), 422, 'request.validation_failed'],
        ['holderDocument missing', body({ holderDocument: undefined }), 422, 'request.validation_failed'],
        ['accountKind other', body({ accountKind: 'current' }), 422, 'request.validation_failed'],
        ['label too long', body({ label: 'x'.repeat(81) }), 422, 'request.validation_failed'],
        ['label only spaces', body({ label: '    ' }), 422, 'request.validation_failed'],
        ['label with a control character', body({ label: 'a\u0007b' }), 422, 'request.validation_failed'],
        ['bankName too short', body({ bankName: 'B' }), 422, 'request.validation_failed'],
        ['accountNumber too few digits', body({ accountNumber: 'ABC-123' }), 422, 'request.validation_failed'],
        ['accountNumber bad characters', body({ accountNumber: '1234/5678' }), 422, 'request.validation_failed'],
        ['accountNumber too long', body({ accountNumber: '1'.repeat(35) }), 422, 'request.validation_failed'],
        ['accountNumber a number', body({ accountNumber: 12345678 }), 422, 'request.validation_failed'],
        ['holderName too short', body({ holderName: 'A' }), 422, 'request.validation_failed'],
        ['holderDocument bad characters', body({ holderDocument: '20/3141#5926' }), 422, 'request.validation_failed'],
        ['holderDocument too short', body({ holderDocument: '123' }), 422, 'request.validation_failed'],
        ['assetSymbol lower case', body({ assetSymbol: 'usd' }), 422, 'request.validation_failed'],
        ['unknown field', body({ iban: 'x' }), 422, 'request.validation_failed'],
        ['asset not listed', body({ assetSymbol: 'EUR' }), 422, 'market.asset_not_listed'],
        ['not JSON', '{"label":', 400, 'request.invalid_json'],
      ];
      for (const [name, b, status, code] of cases) {
        const r = await h.call(o.key, 'POST', '/withdrawals/destinations/bank', b);
        assert.equal(r.status, status, `${name}: ${r.raw}`);
        assert.equal(r.body.code, code, name);
        assertNoSecrets(r.raw);
      }
      const list = await h.call(o.key, 'GET', '/withdrawals/destinations');
      assert.equal(list.body.data.length, 0);
    });

    test('the list is every destination of the organization, newest first, past any page size', async () => {
      const o = await seedOrg(h);
      const other = await seedOrg(h);
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        const r = await h.call(
          o.key,
          'POST',
          '/withdrawals/destinations/bank',
          body({ label: `Account ${i}`, accountNumber: `0001-2345-${1000 + i}` }),
        );
        assert.equal(r.status, 201, r.raw);
        ids.push(r.body.data.id);
      }
      assert.equal((await h.call(other.key, 'POST', '/withdrawals/destinations/bank', body())).status, 201);
      const list = await h.call(o.key, 'GET', '/withdrawals/destinations');
      assert.deepEqual(
        list.body.data.map((d: { id: string }) => d.id),
        ids.reverse(),
      );
      assert.equal(list.body.data[0].summary, 'Banco Nación · checking ···· 1011');
    });

    test('the same account (normalized) twice in one organization is 409, also in parallel; another organization may register it', async () => {
      const o = await seedOrg(h);
      assert.equal((await h.call(o.key, 'POST', '/withdrawals/destinations/bank', body())).status, 201);
      const again = await h.call(
        o.key,
        'POST',
        '/withdrawals/destinations/bank',
        body({ label: 'Other', bankName: 'BANCO  NACION', accountNumber: ACCOUNT_KEY, accountKind: 'savings' }),
      );
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'withdrawals.destination_already_registered');
      assert.equal(
        (await h.call(o.key, 'POST', '/withdrawals/destinations/bank', body({ accountNumber: '0001234567896788' }))).status,
        201,
      );
      const other = await seedOrg(h);
      assert.equal((await h.call(other.key, 'POST', '/withdrawals/destinations/bank', body())).status, 201);

      const p = await seedOrg(h);
      const rs = await Promise.all(Array.from({ length: 6 }, () => h.call(p.key, 'POST', '/withdrawals/destinations/bank', body())));
      assert.deepEqual(rs.map((r) => r.status).sort(), [201, 409, 409, 409, 409, 409]);
      assert.equal((await h.call(p.key, 'GET', '/withdrawals/destinations')).body.data.length, 1);
    });

    test('registering needs portal:destinations and an organization that can operate; listing needs portal:read', async () => {
      const w = await seedOrg(h, { scopes: ['portal:read', 'portal:withdraw'] });
      const r = await h.call(w.key, 'POST', '/withdrawals/destinations/bank', body());
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'auth.scope_missing');
      assert.match(r.body.message!, /portal:destinations/);
      const d = await seedOrg(h, { scopes: ['portal:destinations'] });
      assert.equal((await h.call(d.key, 'POST', '/withdrawals/destinations/bank', body())).status, 201);
      assert.equal((await h.call(d.key, 'GET', '/withdrawals/destinations')).body.code, 'auth.scope_missing');
      const draft = await seedOrg(h, { status: 'draft' });
      const nd = await h.call(draft.key, 'POST', '/withdrawals/destinations/bank', body());
      assert.equal(nd.status, 403);
      assert.equal(nd.body.code, 'clients.client_cannot_operate');
      assert.equal((await h.call(draft.key, 'GET', '/withdrawals/destinations')).status, 200);
      assert.equal((await h.call(null, 'POST', '/withdrawals/destinations/bank', body())).status, 401);
    });

    test('usable only after both the cooldown and the registration in the market, in either order', async () => {
      const o = await seedOrg(h);
      const usable = async (id: string) =>
        (await h.call(o.key, 'GET', '/withdrawals/destinations')).body.data.find((x: { id: string }) => x.id === id).usable;
      const a = (await h.call(o.key, 'POST', '/withdrawals/destinations/bank', body({ accountNumber: '11112222' }))).body.data.id;
      const b = (await h.call(o.key, 'POST', '/withdrawals/destinations/bank', body({ accountNumber: '33334444' }))).body.data.id;

      // a: market first, then the cooldown passes.
      const reg = await h.op('POST', `/destinations/${a}/register-in-market`);
      assert.equal(reg.status, 200, reg.raw);
      assert.equal(reg.body.data.usable, false);
      assert.equal(await usable(a), false);
      clock.advance(COOLDOWN - 1);
      assert.equal(await usable(a), false);
      // b: the cooldown passes first, then the market.
      clock.advance(1);
      assert.equal(await usable(a), true);
      assert.equal(await usable(b), false);
      const regB = await h.op('POST', `/destinations/${b}/register-in-market`);
      assert.equal(regB.body.data.usable, true);
      assert.equal(await usable(b), true);
    });

    test('register-in-market: 404 for an unknown destination; a repeat changes nothing and is audited once', async () => {
      const o = await seedOrg(h);
      const id = (await h.call(o.key, 'POST', '/withdrawals/destinations/bank', body())).body.data.id;
      const nf = await h.op('POST', '/destinations/dst_nope/register-in-market');
      assert.equal(nf.status, 404);
      assert.equal(nf.body.code, 'destinations.not_found');
      const first = await h.op('POST', `/destinations/${id}/register-in-market`);
      clock.advance(1000);
      const second = await h.op('POST', `/destinations/${id}/register-in-market`);
      assert.equal(second.status, 200);
      assert.equal(second.body.data.registeredInMarketAt, first.body.data.registeredInMarketAt);
      const audit = await h.op('GET', `/audit?subjectId=${id}`);
      assert.equal(audit.body.data.length, 1);
      const a = audit.body.data[0];
      assert.equal(a.action, 'destination.register_in_market');
      assert.equal(a.actor, 'bootstrap');
      assert.equal(a.before.registeredInMarketAt, null);
      assert.equal(a.after.registeredInMarketAt, first.body.data.registeredInMarketAt);
      assertNoSecrets(audit.raw);
    });

    test('the account number and document appear in no log line', async () => {
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk, _enc, cb) {
          lines.push(String(chunk));
          cb();
        },
      });
      const logger = pino({ level: 'trace', redact: ['req.headers["x-api-key"]', 'req.headers.authorization'] }, sink);
      const app = await buildApp({ ...h.deps, logger });
      await app.ready();
      try {
        const o = await seedOrg(h);
        const call = (b: unknown) =>
          app.inject({
            method: 'POST',
            url: '/api/v1/withdrawals/destinations/bank',
            headers: { 'x-api-key': o.key, 'content-type': 'application/json' },
            payload: JSON.stringify(b),
          });
        assert.equal((await call(body())).statusCode, 201);
        assert.equal((await call(body())).statusCode, 409);
        assert.equal((await call(body({ label: '   ' }))).statusCode, 422);
        assert.equal((await call(body({ accountNumber: `${ACCOUNT_KEY}/` }))).statusCode, 422);
        assert.equal((await call(body({ holderDocument: `${DOCUMENT}/` }))).statusCode, 422);
        assert.equal(
          (await app.inject({ method: 'GET', url: '/api/v1/withdrawals/destinations', headers: { 'x-api-key': o.key } })).statusCode,
          200,
        );
      } finally {
        await app.close();
      }
      assert.ok(lines.length >= 12, 'the requests were logged');
      assertNoSecrets(lines.join('\n'));
    });
  });
}
