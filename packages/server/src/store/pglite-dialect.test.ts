import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { PGliteDialect } from './pglite-dialect.ts';

test("PGlite's urgent twin: its users take the one connection before the requests waiting, never inside a transaction", async () => {
  const client = await PGlite.create();
  const dialect = new PGliteDialect(client);
  const db = new Kysely<Record<string, never>>({ dialect });
  const urgent = new Kysely<Record<string, never>>({ dialect: dialect.urgentTwin() });
  try {
    await sql`create table turns (n serial primary key, who text not null)`.execute(db);
    const order: string[] = [];
    let letGo!: () => void;
    const held = new Promise<void>((r) => (letGo = r));
    let began!: () => void;
    const begun = new Promise<void>((r) => (began = r));

    // A transaction holds the connection; two requests, then the worker, come to wait for it.
    const txn = db.transaction().execute(async (tx) => {
      await sql`insert into turns (who) values ('transaction')`.execute(tx);
      began();
      await held;
      await sql`insert into turns (who) values ('transaction, later')`.execute(tx);
    });
    await begun;
    const write = (on: Kysely<Record<string, never>>, who: string) =>
      sql`insert into turns (who) values (${who})`.execute(on).then(() => void order.push(who));
    const waiting = [write(db, 'request 1'), write(db, 'request 2'), write(urgent, 'worker')];
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(order, [], 'nobody interleaves with the transaction');
    letGo();
    await Promise.all([txn, ...waiting]);

    assert.deepEqual(order, ['worker', 'request 1', 'request 2']);
    const rows = await sql<{ who: string }>`select who from turns order by n`.execute(db);
    assert.deepEqual(
      rows.rows.map((r) => r.who),
      ['transaction', 'transaction, later', 'worker', 'request 1', 'request 2'],
    );
  } finally {
    await urgent.destroy(); // leaves the shared connection open
    assert.equal((await sql<{ one: number }>`select 1 as one`.execute(db)).rows[0]!.one, 1);
    await db.destroy();
  }
});

test('transactions waiting for PGlite let timers and sockets run between them', async () => {
  const client = await PGlite.create();
  const db = new Kysely<Record<string, never>>({ dialect: new PGliteDialect(client) });
  try {
    await sql`create table queued (n int)`.execute(db);
    let ran = 0;
    let timerAfter = -1;
    setTimeout(() => (timerAfter = ran), 0);
    await Promise.all(
      Array.from({ length: 200 }, () =>
        db.transaction().execute(async (tx) => {
          await sql`insert into queued values (1)`.execute(tx);
          ran++;
        }),
      ),
    );
    assert.ok(timerAfter >= 0 && timerAfter < 200, `the timer fired after ${timerAfter} of 200 transactions`);
  } finally {
    await db.destroy();
  }
});
