import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { systemClock, type ManualClock } from '../src/domain/ports.ts';
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_RETENTION_MS, IdempotencyStore } from '../src/store/idempotency-store.ts';
import { openDatabase } from '../src/store/db.ts';
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

    test('two at once with one key: one 201, one 409 idempotency.in_progress, one withdrawal', async () => {
      const { o, withdraw } = await client();
      // Hold the first request's work (it keeps its answer in its own transaction) until the second has been refused.
      // The work's own transaction claims the key. On PGlite the first request holds its key in flight in the
      // process while its work waits at a gate. On PostgreSQL its work waits for the organization's balance row,
      // which another connection holds, with the key claimed (its hold's entry comes after the claim).
      const { promise: gate, open } = latch();
      // PGlite: the gate stands before the request's transaction, where its work begins.
      const run = h.store.uow.run.bind(h.store.uow);
      if (backend === 'postgres') {
        const { promise: holding, open: locked } = latch();
        void h.store.db.connection().execute(async (other) => {
          await sql`begin`.execute(other);
          await sql`select 1 from accounts where owner_id = ${o.orgId} and asset_symbol = 'USD' for update`.execute(other);
          locked();
          await gate;
          await sql`commit`.execute(other);
        });
        await holding;
      } else {
        h.store.uow.run = async (work) => {
          await gate;
          return run(work);
        };
      }
      try {
        const key = freshKey();
        const both = [withdraw(key, '25000'), withdraw(key, '25000')];
        // The one that claimed the key waits at the gate; the other is answered meanwhile.
        const refused = await Promise.race(both);
        assert.equal(refused.status, 409, refused.raw);
        assert.equal(refused.body.code, 'idempotency.in_progress');
        open();
        assert.deepEqual((await Promise.all(both)).map((r) => r.status).sort(), [201, 409]);
        const third = await withdraw(key, '25000');
        assert.equal(third.headers['idempotent-replayed'], 'true');
      } finally {
        h.store.uow.run = run;
        open();
      }
      assert.equal(await withdrawals(h, o), 1);
      assert.equal(await held(h, o.key, 'USD'), 25_000n);
    });

    test('the same key with another body while the first is in flight: 422 idempotency.key_reused at once, one withdrawal', async () => {
      const { o, withdraw } = await client();
      // The first request's work waits at a gate before its transaction, its key held in flight by the process.
      const { promise: gate, open } = latch();
      const { promise: atGate, open: reached } = latch();
      const run = h.store.uow.run.bind(h.store.uow);
      h.store.uow.run = async (work) => {
        reached();
        await gate;
        return run(work);
      };
      try {
        const key = freshKey();
        const first = withdraw(key, '25000');
        await atGate;
        const other = await withdraw(key, '30000');
        assert.deepEqual([other.status, other.body.code], [422, 'idempotency.key_reused'], other.raw);
        const same = await withdraw(key, '25000');
        assert.deepEqual([same.status, same.body.code], [409, 'idempotency.in_progress'], same.raw);
        open();
        const done = await first;
        assert.equal(done.status, 201, done.raw);
        h.store.uow.run = run;
        // Answered: the hold is gone, the kept answer speaks.
        const again = await withdraw(key, '30000');
        assert.deepEqual([again.status, again.body.code], [422, 'idempotency.key_reused'], again.raw);
        const replay = await withdraw(key, '25000');
        assert.equal(replay.headers['idempotent-replayed'], 'true');
        assert.equal(replay.body.data.id, done.body.data.id);
      } finally {
        h.store.uow.run = run;
        open();
      }
      assert.equal(await withdrawals(h, o), 1);
      assert.equal(await held(h, o.key, 'USD'), 25_000n);
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

    test("kept at least 24 hours (24 h after the claim's lease), then purged: the key then makes a new request", async () => {
      const { o, withdraw } = await client();
      const key = freshKey();
      assert.equal((await withdraw(key, '10000')).status, 201);
      const clock = h.clock as ManualClock;
      // The key expires the retention after its claim's lease: an answer given within the lease is kept 24 h.
      clock.advance(IDEMPOTENCY_RETENTION_MS + IDEMPOTENCY_LEASE_MS - 1000);
      assert.equal(await h.store.idempotency.purgeExpired(), 0);
      assert.equal((await withdraw(key, '10000')).headers['idempotent-replayed'], 'true');
      clock.advance(2000);
      assert.ok((await h.store.idempotency.purgeExpired()) >= 1);
      const after = await withdraw(key, '10000');
      assert.equal(after.status, 201);
      assert.equal(after.headers['idempotent-replayed'], undefined);
      assert.equal(await withdrawals(h, o), 2);
    });

    // Last of these: it moves the shared clock past the lease.
    test('a request that claimed its key and died before deciding: 409 until its lease lapses, then the key runs once', async () => {
      const { o, withdraw } = await client();
      const key = freshKey();
      // What a process that crashed between the claim and the request's work leaves: a claim, no answer.
      const body = JSON.stringify({
        destinationId: (await h.call(o.key, 'GET', '/withdrawals/destinations')).body.data[0].id,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '25000',
      });
      const fingerprint = createHash('sha256').update(`POST /api/v1/withdrawals\nmember:${o.memberId}\n${body}`).digest('hex');
      assert.equal((await h.store.idempotency.claim({ scope: `org:${o.orgId}`, key, fingerprint })).kind, 'claimed');
      const early = await withdraw(key, '25000');
      assert.equal(early.status, 409, early.raw);
      assert.equal(early.body.code, 'idempotency.in_progress');
      (h.clock as ManualClock).advance(IDEMPOTENCY_LEASE_MS + 1000);
      const retried = await withdraw(key, '25000');
      assert.equal(retried.status, 201, retried.raw);
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

if (process.env.DATABASE_URL) {
  test('a claim commits without waiting for the disk, and only its own transaction does [postgres]', async () => {
    const pg = await createPgDatabase();
    const opened = await openDatabase({ databaseUrl: pg.url, dataDir: 'memory://', poolSize: 1 });
    try {
      const store = new IdempotencyStore(opened.db, systemClock);
      const c = { scope: 'org:x', key: 'k-1', fingerprint: 'f' };
      assert.equal((await store.claim(c)).kind, 'claimed');
      // Seen at once by the next request, on the same (only) connection, whose own commits stay synchronous.
      assert.deepEqual(await store.claim(c), { kind: 'in_progress' });
      const r = await sql<{ s: string }>`select current_setting('synchronous_commit') as s`.execute(opened.db);
      assert.equal(r.rows[0]!.s, 'on');
    } finally {
      await opened.close();
      await pg.drop();
    }
  });
}
