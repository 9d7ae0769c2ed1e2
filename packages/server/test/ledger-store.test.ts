import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../src/store/schema.ts';
import { DomainError } from '../src/domain/errors.ts';
import { reversalOf, type Entry } from '../src/domain/ledger/entry.ts';
import { captureHold, releaseHold, takeHold } from '../src/store/holds.ts';
import { postEntry } from '../src/store/ledger-store.ts';
import { backends, listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';

/** The store suite: the same assertions on PGlite and on PostgreSQL. */
for (const backend of backends()) {
  describe(`ledger store [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
      await listAssets(h, { USD: 2 });
    });
    after(async () => h?.close());

    const balance = async (owner: string, kind: string) => {
      const r = await h.store.db
        .selectFrom('accounts')
        .select('balance')
        .where('owner_id', '=', owner)
        .where('asset_symbol', '=', 'USD')
        .where('kind', '=', kind)
        .executeTakeFirst();
      return BigInt(r?.balance ?? '0');
    };
    const tx = <T>(fn: (t: Transaction<Database>) => Promise<T>) => h.store.db.transaction().execute(fn);

    test('an unbalanced entry is refused and writes nothing', async () => {
      const o = await seedOrg(h, { balances: { USD: 1000n } });
      const entries = await h.store.db
        .selectFrom('journal_entries')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      const bad: Entry = {
        kind: 'adjustment',
        organizationId: o.orgId,
        referenceId: null,
        memo: null,
        postings: [
          { ownerId: o.orgId, assetSymbol: 'USD', kind: 'available', amount: 10n },
          { ownerId: 'platform', assetSymbol: 'USD', kind: 'market', amount: -9n },
        ],
      };
      await assert.rejects(
        tx((t) => postEntry(t, 'je_bad', bad, new Date())),
        (e: unknown) => e instanceof DomainError && e.code === 'ledger.unbalanced_entry',
      );
      const after = await h.store.db
        .selectFrom('journal_entries')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(after.n.toString(), entries.n.toString());
      assert.equal(await balance(o.orgId, 'available'), 1000n);
    });

    test('hold, release and capture move available and held exactly, once', async () => {
      const o = await seedOrg(h, { balances: { USD: 1000n } });
      const ids = h.store.ids;
      const hold = await tx((t) =>
        takeHold(
          t,
          ids,
          new Date(),
          { organizationId: o.orgId, assetSymbol: 'USD', amount: 300n, kind: 'order_hold', referenceId: 'ref1' },
          async (id) => id,
        ),
      );
      assert.equal(await balance(o.orgId, 'available'), 700n);
      assert.equal(await balance(o.orgId, 'held'), 300n);
      await tx((t) => releaseHold(t, ids, new Date(), hold, 'order_release', 'ref1'));
      assert.equal(await balance(o.orgId, 'available'), 1000n);
      assert.equal(await balance(o.orgId, 'held'), 0n);
      await assert.rejects(tx((t) => releaseHold(t, ids, new Date(), hold, 'order_release', 'ref1')));
      assert.equal(await balance(o.orgId, 'available'), 1000n);
      const hold2 = await tx((t) =>
        takeHold(
          t,
          ids,
          new Date(),
          { organizationId: o.orgId, assetSymbol: 'USD', amount: 1000n, kind: 'withdrawal_hold', referenceId: 'ref2' },
          async (id) => id,
        ),
      );
      await tx(async (t) => {
        const hr = await captureHold(t, hold2, new Date());
        await postEntry(
          t,
          ids.next('je'),
          {
            kind: 'withdrawal_settlement',
            organizationId: o.orgId,
            referenceId: 'ref2',
            memo: null,
            postings: [
              { ownerId: o.orgId, assetSymbol: 'USD', kind: 'held', amount: -hr.amount },
              { ownerId: 'platform', assetSymbol: 'USD', kind: 'market', amount: hr.amount },
            ],
          },
          new Date(),
        );
      });
      assert.equal(await balance(o.orgId, 'available'), 0n);
      assert.equal(await balance(o.orgId, 'held'), 0n);
    });

    test('a reversal undoes an entry by new postings, never by edit', async () => {
      const o = await seedOrg(h, { balances: { USD: 50n } });
      const e: Entry = {
        kind: 'adjustment',
        organizationId: o.orgId,
        referenceId: null,
        memo: 'm',
        postings: [
          { ownerId: o.orgId, assetSymbol: 'USD', kind: 'available', amount: 25n },
          { ownerId: 'platform', assetSymbol: 'USD', kind: 'market', amount: -25n },
        ],
      };
      await tx((t) => postEntry(t, h.store.ids.next('je'), e, new Date()));
      assert.equal(await balance(o.orgId, 'available'), 75n);
      await tx((t) => postEntry(t, h.store.ids.next('je'), reversalOf(e, 'undo'), new Date()));
      assert.equal(await balance(o.orgId, 'available'), 50n);
      const n = await h.store.db
        .selectFrom('postings')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('owner_id', '=', o.orgId)
        .executeTakeFirstOrThrow();
      assert.equal(Number(n.n), 3); // funding + entry + reversal: history kept
    });

    test('20 parallel holds against a balance that backs exactly 5: 5 succeed, available 0, never negative', async () => {
      const o = await seedOrg(h, { balances: { USD: 500n } });
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          tx((t) =>
            takeHold(
              t,
              h.store.ids,
              new Date(),
              { organizationId: o.orgId, assetSymbol: 'USD', amount: 100n, kind: 'order_hold', referenceId: `c${i}` },
              async (id) => id,
            ),
          ),
        ),
      );
      const ok = results.filter((r) => r.status === 'fulfilled').length;
      const refused = results.filter(
        (r) => r.status === 'rejected' && r.reason instanceof DomainError && r.reason.code === 'ledger.insufficient_balance',
      ).length;
      assert.equal(ok, 5);
      assert.equal(refused, 15);
      assert.equal(await balance(o.orgId, 'available'), 0n);
      assert.equal(await balance(o.orgId, 'held'), 500n);
      const holds = await h.store.db
        .selectFrom('holds')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('organization_id', '=', o.orgId)
        .where('state', '=', 'active')
        .executeTakeFirstOrThrow();
      assert.equal(Number(holds.n), 5);
    });

    test('the database itself refuses a negative organization balance', async () => {
      const o = await seedOrg(h, { balances: { USD: 5n } });
      await assert.rejects(sql`update accounts set balance = -1 where owner_id = ${o.orgId} and kind = 'available'`.execute(h.store.db));
    });

    test('every entry in the journal sums to zero per asset', async () => {
      const r = await sql<{
        n: string;
      }>`select count(*) as n from (select entry_id, asset_symbol from postings group by entry_id, asset_symbol having sum(amount) <> 0) x`.execute(
        h.store.db,
      );
      assert.equal(Number(r.rows[0]!.n), 0);
    });
  });
}
