import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { callJson, childService, until, type ChildService } from './child-service.ts';
import { backends } from './harness.ts';

/** The three kinds of record the load creates: table, event prefix, and what ties an event to its row. */
const KINDS = [
  {
    kind: 'order',
    table: 'orders',
    check: sql`e.data->>'quoteId' = t.quote_id and e.data->'base'->>'amountMinor' = t.amount_base_minor::text`,
  },
  {
    kind: 'withdrawal',
    table: 'withdrawals',
    check: sql`e.data->>'destinationId' = t.destination_id and e.data->'money'->>'amountMinor' = t.amount_minor::text`,
  },
  {
    kind: 'declaration',
    table: 'deposit_declarations',
    check: sql`e.data->>'reference' = t.reference and e.data->>'declaredAmountMinor' = t.declared_amount_minor::text`,
  },
] as const;

/** An answer other than 201 from a live service: the load itself is broken, and the test says so. */
class Refused extends Error {}

/**
 * One creating call of each kind; the id of what it created. Declarations live 1 ms
 * (CAMBIO_DECLARATION_TTL_MS), so each one also expires the one before (one open per organization).
 */
function operations(
  s: ChildService,
  destinationId: string,
): Record<'order' | 'declaration' | 'withdrawal', (n: number) => Promise<{ kind: string; id: string }>> {
  const created = (kind: string) => (r: { status: number; data: { id: string }; raw: string }) => {
    if (r.status !== 201) throw new Refused(`${kind}: ${r.status} ${r.raw}`);
    return { kind, id: r.data.id };
  };
  return {
    order: async () => {
      const q = created('quote')(
        await callJson(s, 'POST', '/api/v1/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '500000' }),
      );
      return created('order')(await callJson(s, 'POST', '/api/v1/orders', { quoteId: q.id }));
    },
    declaration: async (n) =>
      created('declaration')(
        await callJson(s, 'POST', '/api/v1/deposits/declarations', {
          assetSymbol: 'USD',
          assetDecimals: 2,
          declaredAmountMinor: String(100_000 * (n + 1)),
        }),
      ),
    withdrawal: async () =>
      created('withdrawal')(
        await callJson(s, 'POST', '/api/v1/withdrawals', { destinationId, assetSymbol: 'USD', assetDecimals: 2, amountMinor: '100' }),
      ),
  };
}

/**
 * docs/api-guide.md: an event is written in the transaction of its state change, so an event never exists
 * for a rolled-back change and no committed change lacks its event. The service (a child process, as
 * `npm start` runs it) takes concurrent creating load (quotes→orders, declarations, withdrawals) and is
 * SIGKILLed with calls in flight; after a restart, the events table is compared with the records.
 */
for (const backend of backends()) {
  describe(`events survive a SIGKILL under load (${backend})`, () => {
    test(
      'every event belongs to a committed state change, and every committed record has its events once',
      { timeout: 300_000 },
      async () => {
        const s = await childService(backend, { CAMBIO_DESTINATION_COOLDOWN_MS: '0', CAMBIO_DECLARATION_TTL_MS: '1' });
        try {
          const dest = await callJson(s, 'POST', '/api/v1/withdrawals/destinations/bank', {
            label: 'Kill',
            assetSymbol: 'USD',
            bankName: 'Banco',
            accountKind: 'checking',
            accountNumber: '0012-3456',
            holderName: 'Demo Treasury',
            holderDocument: 'V-0001',
          });
          assert.equal(dest.status, 201, dest.raw);
          const reg = await callJson(s, 'POST', `/operator/v1/destinations/${dest.data.id}/register-in-market`, undefined, 'operator');
          assert.equal(reg.status, 200, reg.raw);
          const ops = operations(s, dest.data.id);

          // Six clients create without pause (one declares: an organization has one open declaration at a time);
          // the kill comes once a few dozen records were answered.
          const roles = ['declaration', 'order', 'order', 'order', 'withdrawal', 'withdrawal'] as const;
          const acknowledged: Array<{ kind: string; id: string }> = [];
          const refused: string[] = [];
          let inFlight = 0;
          let stopped = false;
          const clients = roles.map(async (role) => {
            for (let n = 0; !stopped; n++) {
              inFlight++;
              try {
                acknowledged.push(await ops[role](n));
              } catch (e) {
                if (e instanceof Refused) refused.push(e.message); // otherwise the service died under this call
              } finally {
                inFlight--;
              }
            }
          });
          await until(async () => (acknowledged.length >= 45 ? true : undefined), 10);
          const inFlightAtKill = inFlight;
          const killed = s.kill();
          stopped = true;
          await killed;
          await Promise.all(clients);
          assert.deepEqual(refused, [], 'every call the live service answered created its record');
          assert.ok(inFlightAtKill > 0, 'calls were in flight when the service was killed');
          for (const k of KINDS)
            assert.ok(
              acknowledged.some((a) => a.kind === k.kind),
              `the load created ${k.kind}s`,
            );

          // The restarted service works on the same store; then it stops so the store can be read (PGlite: one process).
          await s.start();
          for (const role of ['order', 'declaration', 'withdrawal'] as const) await ops[role](1_000); // each creates again after the restart
          await s.stop();

          const store = await s.openStore();
          try {
            const q = async <T>(query: ReturnType<typeof sql>) => (await query.execute(store.db)).rows as T[];
            for (const k of KINDS) {
              const table = sql.table(k.table);
              // every record: exactly one `<kind>.created`, consistent with the row
              const created = await q<{ id: string; n: string }>(sql`select t.id, (select count(*) from events e
              where e.subject_id = t.id and e.type = ${`${k.kind}.created`} and e.organization_id = t.organization_id and ${k.check}) as n
              from ${table} t`);
              assert.ok(created.length > 0);
              assert.deepEqual(
                created.filter((r) => Number(r.n) !== 1),
                [],
                `${k.kind}s without exactly one matching ${k.kind}.created`,
              );
              // every event of the kind: its record exists, and matches it
              const orphans = await q<{ seq: string; type: string }>(sql`select e.seq, e.type from events e
              where e.type like ${`${k.kind}.%`} and not exists (select 1 from ${table} t
                where t.id = e.subject_id and t.organization_id = e.organization_id and e.data->>'id' = t.id and ${k.check})`);
              assert.deepEqual(orphans, [], `${k.kind} events of no committed ${k.kind}`);
              // a state is reported once, and the newest event carries the record's state now
              const twice = await q<{ subject_id: string; type: string }>(sql`select subject_id, type from events
              where type like ${`${k.kind}.%`} group by subject_id, type having count(*) > 1`);
              assert.deepEqual(twice, [], `${k.kind} events written twice`);
              const stale = await q<{
                id: string;
                state: string;
                last: string;
              }>(sql`select t.id, t.state, e.data->>'state' as last from ${table} t
              join lateral (select data from events where subject_id = t.id order by seq desc limit 1) e on true
              where e.data->>'state' <> t.state`);
              assert.deepEqual(stale, [], `${k.kind}s whose newest event is not their state`);
            }
            // what the service answered 201 for was committed
            const ids = new Set(
              (
                await q<{ id: string }>(
                  sql`select id from orders union all select id from withdrawals union all select id from deposit_declarations`,
                )
              ).map((r) => r.id),
            );
            assert.deepEqual(
              acknowledged.filter((a) => !ids.has(a.id)),
              [],
              'acknowledged records lost',
            );
          } finally {
            await store.close();
          }
        } finally {
          await s.cleanup();
        }
      },
    );
  });
}
