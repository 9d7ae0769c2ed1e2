import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ManualClock } from '../src/domain/ports.ts';
import { IDEMPOTENCY_KEPT_MS } from '../src/domain/idempotency/retention.ts';
import { sql } from 'kysely';
import {
  available,
  backends,
  createPgDatabase,
  held,
  listAssets,
  makeHarness,
  seedOrg,
  usableDestination,
  type Harness,
  type SeededOrg,
} from './harness.ts';
import { latch } from './latch.ts';

const ENV = { CAMBIO_DESTINATION_COOLDOWN_MS: '0' };
let n = 0;
const freshKey = () => `key-${Date.now()}-${++n}`;

async function withdrawals(h: Harness, o: SeededOrg): Promise<number> {
  return (await h.call(o.key, 'GET', '/withdrawals')).body.pagination.total;
}

for (const backend of backends()) {
  describe(`Idempotency-Key [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend, manualClock: true, env: ENV });
      await listAssets(h, { USD: 2 });
    });
    after(async () => h?.close());

    async function client(): Promise<{ o: SeededOrg; withdraw: (key: string | null, amountMinor: string) => ReturnType<Harness['call']> }> {
      const o = await seedOrg(h, { balances: { USD: 100_000n } });
      const dst = await usableDestination(h, o.key);
      return {
        o,
        withdraw: (key, amountMinor) =>
          h.call(
            o.key,
            'POST',
            '/withdrawals',
            { destinationId: dst, assetSymbol: 'USD', assetDecimals: 2, amountMinor },
            key !== null ? { 'idempotency-key': key } : {},
          ),
      };
    }

    test('the same key and body: the kept answer again, marked replayed, and one withdrawal held once', async () => {
      const { o, withdraw } = await client();
      const key = freshKey();
      const first = await withdraw(key, '25000');
      assert.equal(first.status, 201, first.raw);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      const again = await withdraw(key, '25000');
      assert.equal(again.status, 201);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.raw, first.raw, 'byte for byte the first answer');
      assert.equal(await withdrawals(h, o), 1);
      assert.equal(await held(h, o.key, 'USD'), 25_000n);
      // Without a key the same call is a second request (what the key protects against).
      assert.equal((await withdraw(null, '25000')).status, 201);
      assert.equal(await withdrawals(h, o), 2);
    });

    test('the same key with another body: 422 idempotency.key_reused, nothing created', async () => {
      const { o, withdraw } = await client();
      const key = freshKey();
      assert.equal((await withdraw(key, '25000')).status, 201);
      const other = await withdraw(key, '30000');
      assert.equal(other.status, 422, other.raw);
      assert.equal(other.body.code, 'idempotency.key_reused');
      assert.equal(await withdrawals(h, o), 1);
      assert.equal(await available(h, o.key, 'USD'), 75_000n);
      // Another path with the same key is another request too.
      const quote = await h.call(
        o.key,
        'POST',
        '/quotes',
        { baseSymbol: 'USD', quoteSymbol: 'BTC', amountBaseMinor: '100' },
        { 'idempotency-key': key },
      );
      assert.equal(quote.body.code, 'idempotency.key_reused');
    });

    /**
     * On PostgreSQL: holds the organization's USD balance row from another connection until `release`, so a request's
     * transaction, its key claimed first, waits there (its hold's entry comes after the claim).
     */
    async function holdBalance(o: SeededOrg): Promise<() => void> {
      const { promise: gate, open } = latch();
      const { promise: holding, open: locked } = latch();
      void h.store.db.connection().execute(async (other) => {
        await sql`begin`.execute(other);
        await sql`select 1 from accounts where owner_id = ${o.orgId} and asset_symbol = 'USD' for update`.execute(other);
        locked();
        await gate;
        await sql`commit`.execute(other);
      });
      await holding;
      return open;
    }

    test('two at once with one key: one withdrawal; the other is 409 while the first is in flight, else its replay', async () => {
      const { o, withdraw } = await client();
      const key = freshKey();
      if (backend === 'postgres') {
        // The first request's transaction holds the key's row until it commits: the second waits a moment for it, then 409.
        const release = await holdBalance(o);
        try {
          const both = [withdraw(key, '25000'), withdraw(key, '25000')];
          const refused = await Promise.race(both);
          assert.deepEqual([refused.status, refused.body.code], [409, 'idempotency.in_progress'], refused.raw);
          release();
          assert.deepEqual((await Promise.all(both)).map((r) => r.status).sort(), [201, 409]);
        } finally {
          release();
        }
      } else {
        // PGlite runs one transaction at a time: the second claims the key after the first committed, and replays it.
        const both = await Promise.all([withdraw(key, '25000'), withdraw(key, '25000')]);
        assert.deepEqual(
          both.map((r) => r.status),
          [201, 201],
        );
        assert.deepEqual(both.map((r) => r.headers['idempotent-replayed'] ?? 'first').sort(), ['first', 'true']);
        assert.equal(both[0]!.body.data.id, both[1]!.body.data.id);
      }
      const third = await withdraw(key, '25000');
      assert.equal(third.headers['idempotent-replayed'], 'true');
      assert.equal(await withdrawals(h, o), 1);
      assert.equal(await held(h, o.key, 'USD'), 25_000n);
    });

    test('the same key with another body while the first is in flight: 409 while it runs, 422 once answered, one withdrawal', async () => {
      const { o, withdraw } = await client();
      const key = freshKey();
      if (backend === 'postgres') {
        const release = await holdBalance(o);
        try {
          const first = withdraw(key, '25000');
          // In flight, its transaction open: what it was asked is not visible yet, so whatever the body, 409.
          let other = await withdraw(key, '30000');
          for (let i = 0; i < 100 && other.status === 201; i++) other = await withdraw(key, '30000');
          assert.deepEqual([other.status, other.body.code], [409, 'idempotency.in_progress'], other.raw);
          release();
          assert.equal((await first).status, 201);
        } finally {
          release();
        }
      } else {
        const both = await Promise.all([withdraw(key, '25000'), withdraw(key, '30000')]);
        assert.deepEqual(both.map((r) => r.status).sort(), [201, 422]);
      }
      const again = await withdraw(key, '30000');
      const replay = await withdraw(key, '25000');
      assert.equal(await withdrawals(h, o), 1);
      if (replay.status === 201) {
        assert.deepEqual([again.status, again.body.code], [422, 'idempotency.key_reused'], again.raw);
        assert.equal(replay.headers['idempotent-replayed'], 'true');
      } else {
        // PGlite: the other body came first.
        assert.equal(again.headers['idempotent-replayed'], 'true');
        assert.deepEqual([replay.status, replay.body.code], [422, 'idempotency.key_reused']);
      }
    });

    test('the same key in two organizations: two withdrawals, neither replayed', async () => {
      const a = await client();
      const b = await client();
      const key = freshKey();
      const ra = await a.withdraw(key, '25000');
      const rb = await b.withdraw(key, '25000');
      assert.equal(ra.status, 201);
      assert.equal(rb.status, 201);
      assert.equal(rb.headers['idempotent-replayed'], undefined);
      assert.notEqual(ra.body.data.id, rb.body.data.id);
      assert.equal(await withdrawals(h, a.o), 1);
      assert.equal(await withdrawals(h, b.o), 1);
    });

    test('an answer that decided nothing (a 500) is not kept: the same key runs again', async () => {
      const { o, withdraw } = await client();
      const key = freshKey();
      const run = h.store.uow.run.bind(h.store.uow);
      h.store.uow.run = async () => {
        throw new Error('the database went away');
      };
      try {
        const failed = await withdraw(key, '25000');
        assert.equal(failed.status, 500);
      } finally {
        h.store.uow.run = run;
      }
      const later = await withdraw(key, '25000');
      assert.equal(later.status, 201, later.raw);
      assert.equal(later.headers['idempotent-replayed'], undefined);
      assert.equal(await withdrawals(h, o), 1);
    });

    test('an operator decision with a key: the retry gets the decision, not 409 already decided', async () => {
      const { o, withdraw } = await client();
      const w = (await withdraw(null, '25000')).body.data;
      const approve = () =>
        h.app.inject({
          method: 'POST',
          url: `/operator/v1/withdrawals/${w.id}/approve`,
          headers: {
            authorization: 'Bearer test-operator-token-0123456789',
            'content-type': 'application/json',
            'idempotency-key': 'approve-1',
          },
          payload: '{}',
        });
      const first = await approve();
      assert.equal(first.statusCode, 200, first.body);
      const again = await approve();
      assert.equal(again.statusCode, 200);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(JSON.parse(again.body).data.state, 'completed');
      assert.equal(await held(h, o.key, 'USD'), 0n);
      assert.equal(await available(h, o.key, 'USD'), 75_000n);
    });

    test('a malformed key is 400 idempotency.key_invalid and creates nothing', async () => {
      const { o, withdraw } = await client();
      for (const bad of ['', 'x'.repeat(256), 'caf\u00e9']) {
        const r = await withdraw(bad, '25000');
        assert.equal(r.status, 400, `${JSON.stringify(bad)}: ${r.raw}`);
        assert.equal(r.body.code, 'idempotency.key_invalid');
      }
      assert.equal(await withdrawals(h, o), 0);
    });

    test('kept at least 24 hours (24 h 5 min after its claim), then purged: the key then makes a new request', async () => {
      const { o, withdraw } = await client();
      const key = freshKey();
      assert.equal((await withdraw(key, '10000')).status, 201);
      const clock = h.clock as ManualClock;
      // The key expires 24 h 5 min after its claim: an answer given within 5 minutes of it is kept 24 h.
      clock.advance(IDEMPOTENCY_KEPT_MS - 1000);
      assert.equal(await h.store.idempotency.purgeExpired(), 0);
      assert.equal((await withdraw(key, '10000')).headers['idempotent-replayed'], 'true');
      clock.advance(2000);
      assert.ok((await h.store.idempotency.purgeExpired()) >= 1);
      const after = await withdraw(key, '10000');
      assert.equal(after.status, 201);
      assert.equal(after.headers['idempotent-replayed'], undefined);
      assert.equal(await withdrawals(h, o), 2);
    });

    test('a key whose work committed and whose answer was never kept (a crash between the two): 409, nothing done twice', async () => {
      const { o, withdraw } = await client();
      const key = freshKey();
      const dst = (await h.call(o.key, 'GET', '/withdrawals/destinations')).body.data[0].id as string;
      const body = JSON.stringify({ destinationId: dst, assetSymbol: 'USD', assetDecimals: 2, amountMinor: '25000' });
      const fingerprint = createHash('sha256').update(`POST /api/v1/withdrawals\nmember:${o.memberId}\n${body}`).digest('hex');
      // What such a crash leaves: the key's row in flight, committed with the work.
      await sql`insert into idempotency_keys (scope, key, fingerprint, state, status, response, created_at, expires_at)
        values (${`org:${o.orgId}`}, ${key}, ${fingerprint}, 'in_flight', null, null, ${h.clock.now()}, ${new Date(h.clock.now().getTime() + 86_400_000)})`.execute(
        h.store.db,
      );
      const same = await withdraw(key, '25000');
      assert.deepEqual([same.status, same.body.code], [409, 'idempotency.in_progress'], same.raw);
      const other = await withdraw(key, '30000');
      assert.deepEqual([other.status, other.body.code], [422, 'idempotency.key_reused'], other.raw);
      assert.equal(await withdrawals(h, o), 0);
    });

    test('a request that died before its commit leaves no claim: the retry runs at once, once', async () => {
      const { o, withdraw } = await client();
      const key = freshKey();
      const insert = h.store.withdrawals.insert.bind(h.store.withdrawals);
      h.store.withdrawals.insert = async () => {
        throw new Error('the process died');
      };
      try {
        assert.equal((await withdraw(key, '25000')).status, 500);
      } finally {
        h.store.withdrawals.insert = insert;
      }
      const retried = await withdraw(key, '25000');
      assert.deepEqual([retried.status, retried.headers['idempotent-replayed']], [201, undefined], retried.raw);
      assert.equal((await withdraw(key, '25000')).headers['idempotent-replayed'], 'true');
      assert.equal(await withdrawals(h, o), 1);
      assert.equal(await held(h, o.key, 'USD'), 25_000n);
    });
  });

  test(`Idempotency-Key survives a restart between the two requests [${backend}]`, async () => {
    const pg = backend === 'postgres' ? await createPgDatabase() : null;
    const dir = pg ? null : mkdtempSync(join(tmpdir(), 'cambio-idem-'));
    const storage = pg ? { databaseUrl: pg.url } : { dataDir: dir! };
    try {
      const first = await makeHarness({ backend, env: ENV, storage });
      await listAssets(first, { USD: 2 });
      const o = await seedOrg(first, { balances: { USD: 100_000n } });
      const dst = await usableDestination(first, o.key);
      const body = { destinationId: dst, assetSymbol: 'USD', assetDecimals: 2, amountMinor: '25000' };
      const r1 = await first.call(o.key, 'POST', '/withdrawals', body, { 'idempotency-key': 'restart-1' });
      assert.equal(r1.status, 201, r1.raw);
      await first.close();

      const second = await makeHarness({ backend, env: ENV, storage });
      try {
        const r2 = await second.call(o.key, 'POST', '/withdrawals', body, { 'idempotency-key': 'restart-1' });
        assert.equal(r2.status, 201);
        assert.equal(r2.headers['idempotent-replayed'], 'true');
        assert.equal(r2.body.data.id, r1.body.data.id);
        assert.equal(await withdrawals(second, o), 1);
        assert.equal(await held(second, o.key, 'USD'), 25_000n);
      } finally {
        await second.close();
      }
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
      await pg?.drop();
    }
  });
}
