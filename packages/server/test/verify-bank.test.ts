import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { checkOnce } from '../../../scripts/verify-bank/checker.ts';
import { History } from '../../../scripts/verify-bank/history.ts';
import { listAssets, makeHarness, seedOrg, type Harness, type SeededOrg } from './harness.ts';

/**
 * The short version of `npm run verify:bank` (fixed seeds, a few seconds each), and a test that its checker
 * does catch what it claims to: each invariant is broken by hand in a real database and must be reported.
 * Both need PostgreSQL: they run when DATABASE_URL is set (CI sets it) and are skipped otherwise.
 */
const skip = process.env.DATABASE_URL ? false : 'needs DATABASE_URL (PostgreSQL)';
const root = new URL('../../../', import.meta.url).pathname;

describe('verify:bank checker catches each broken invariant', { skip }, () => {
  let h: Harness;
  let client: pg.Client;
  let org: SeededOrg;
  let withdrawalId: string;
  const history = new History();

  before(async () => {
    h = await makeHarness({ backend: 'postgres', env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
    await listAssets(h, { USD: 2 });
    org = await seedOrg(h, { balances: { USD: 100_000n } });
    const d = await h.call(org.key, 'POST', '/withdrawals/destinations/bank', {
      label: 'Check', assetSymbol: 'USD', bankName: 'Banco', accountKind: 'savings', accountNumber: '1234-5678', holderName: 'H Holder', holderDocument: 'V0001',
    });
    assert.equal(d.status, 201, d.raw);
    await h.op('POST', `/destinations/${d.body.data.id}/register-in-market`);
    const w = await h.call(org.key, 'POST', '/withdrawals', { destinationId: d.body.data.id, assetSymbol: 'USD', assetDecimals: 2, amountMinor: '2500' });
    assert.equal(w.status, 201, w.raw);
    withdrawalId = w.body.data.id;
    client = new pg.Client({ connectionString: h.config.databaseUrl });
    await client.connect();
  });
  after(async () => { await client?.end(); await h?.close(); });

  const problems = async () => (await checkOnce(client, history, true)).problems;
  const named = (ps: string[], invariant: string) => ps.filter((p) => p.startsWith(`${invariant}:`));

  /** Breaks the database with `breakIt`, checks, and always puts it back with `repair`. */
  async function whileBroken(breakIt: string, repair: string, values: unknown[]): Promise<string[]> {
    await client.query(breakIt, values);
    try { return await problems(); } finally { await client.query(repair, values); }
  }

  test('a consistent database passes; rows no client announced are reported until they are', async () => {
    const before = await problems();
    assert.deepEqual(before.filter((p) => !p.startsWith('nothing exists that no request created:')), []);
    assert.ok(named(before, 'nothing exists that no request created').some((p) => p.includes(withdrawalId)), before.join('\n'));
    // Announce every row, as the workload's clients would have seen them in 201s.
    for (const [kind, table, where] of [['withdrawal', 'withdrawals', ''], ['destination', 'withdrawal_destinations', ''], ['adjustment', 'journal_entries', `where kind = 'adjustment'`]] as const) {
      for (const r of (await client.query(`select id from ${table} ${where}`)).rows) history.created.get(kind)!.set(r.id, '');
    }
    assert.deepEqual(await problems(), []);
  });

  test('a balance that is not the sum of its postings, and a total that moved without a recorded flow', async () => {
    const ps = await whileBroken(
      `update accounts set balance = balance + 7 where owner_id = $1 and kind = 'available' and asset_symbol = 'USD'`,
      `update accounts set balance = balance - 7 where owner_id = $1 and kind = 'available' and asset_symbol = 'USD'`, [org.orgId]);
    assert.equal(named(ps, 'every balance is the sum of its postings').length, 1, ps.join('\n'));
    assert.match(named(ps, 'totals change only by adjustments, arrivals, completed withdrawals and executed orders')[0] ?? '', /USD/);
    assert.deepEqual(await problems(), []);
  });

  test('an entry that does not sum to zero', async () => {
    const ps = await whileBroken(
      `insert into postings (entry_id, owner_id, asset_symbol, account_kind, amount, created_at) select id, 'platform', 'USD', 'revenue', 1, now() from journal_entries where kind = 'adjustment' and organization_id = $1 limit 1`,
      `delete from postings where account_kind = 'revenue' and owner_id = 'platform' and amount = 1 and $1::text is not null`, [org.orgId]);
    assert.equal(named(ps, 'every journal entry sums to zero per asset').length, 1, ps.join('\n'));
  });

  test('a request completed without its settlement, and held money no request explains', async () => {
    const ps = await whileBroken(`update withdrawals set state = 'completed' where id = $1`, `update withdrawals set state = 'pending_approval' where id = $1`, [withdrawalId]);
    assert.ok(named(ps, 'every request is held once and settled or released at most once').some((p) => p.includes(withdrawalId)), ps.join('\n'));
    assert.ok(named(ps, 'held equals the active holds and the pending requests').length >= 1, ps.join('\n'));
    assert.ok(named(ps, 'totals change only by adjustments, arrivals, completed withdrawals and executed orders').length >= 1, ps.join('\n'));
  });

  test('a negative organization balance', async () => {
    // The CHECK constraint forbids it; the checker must still see it if the constraint were ever dropped.
    await client.query('alter table accounts drop constraint accounts_org_non_negative');
    try {
      const ps = await whileBroken(
        `update accounts set balance = -balance - 1 where owner_id = $1 and kind = 'held'`, `update accounts set balance = -balance - 1 where owner_id = $1 and kind = 'held'`, [org.orgId]);
      assert.equal(named(ps, 'no organization balance is negative').length, 1, ps.join('\n'));
    } finally {
      await client.query(`alter table accounts add constraint accounts_org_non_negative check (owner_id = 'platform' or balance >= 0)`);
    }
  });

  test('books that disagree with the venue', async () => {
    const ps = await whileBroken(`update venue_balances set amount = amount + 1 where asset_symbol = $1`, `update venue_balances set amount = amount - 1 where asset_symbol = $1`, ['USD']);
    assert.equal(named(ps, 'the books agree with the venue (minus the market account = venue balance)').length, 1, ps.join('\n'));
  });

  test('a 201 that is not in the database, and a 200 decision the request does not show', async () => {
    history.created.get('order')!.set('ord_never_written', 'q');
    history.decided(withdrawalId, 'rejected');
    const ps = await problems();
    history.created.get('order')!.delete('ord_never_written');
    history.decisions.delete(withdrawalId);
    assert.deepEqual(named(ps, 'every 201 a client saw exists'), ['every 201 a client saw exists: order ord_never_written answered 201 but is not in the database']);
    assert.ok(named(ps, 'every decision that answered 200 is the state of its request')[0]?.includes(withdrawalId), ps.join('\n'));
  });
});

/** Runs the real command; resolves with its output and exit code. */
function verifyBank(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'scripts/verify-bank/main.ts', ...args], { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.once('exit', (code) => resolve({ code, out }));
  });
}

function summary(out: string) {
  const m = /^(\d+) operations, (\d+) kills, (\d+) checks, (\d+) violations$/m.exec(out);
  assert.ok(m, `no summary line in:\n${out}`);
  return { ops: Number(m[1]), kills: Number(m[2]), checks: Number(m[3]), violations: Number(m[4]) };
}

describe('verify:bank, short runs with fixed seeds', { skip }, () => {
  test('8 clients for 6 s on one instance: no violation', { timeout: 120_000 }, async () => {
    const r = await verifyBank(['--seconds', '6', '--clients', '8', '--seed', '42']);
    const s = summary(r.out);
    assert.equal(r.code, 0, r.out);
    assert.equal(s.violations, 0, r.out);
    assert.ok(s.ops > 200 && s.checks > 0, r.out);
    // Every kind of operation ran: reads, orders, deposits, destinations, withdrawals and the operator's side.
    assert.doesNotMatch(r.out, /not available yet/, r.out);
    for (const op of ['order', 'withdraw', 'approve-withdrawals', 'approve-orders', 'arrival']) assert.match(r.out, new RegExp(`^  ${op} +.*20[01]×`, 'm'), r.out);
  });

  test('8 clients for 8 s with the process SIGKILLed and restarted: no violation, nothing half-done', { timeout: 150_000 }, async () => {
    const r = await verifyBank(['--seconds', '8', '--clients', '8', '--seed', '7', '--kill-every', '4000']);
    const s = summary(r.out);
    assert.equal(r.code, 0, r.out);
    assert.ok(s.kills >= 1, r.out);
    assert.equal(s.violations, 0, r.out);
  });

  test('two instances on one database (rate limits in Redis when it answers): no violation', { timeout: 120_000 }, async () => {
    const r = await verifyBank(['--seconds', '6', '--clients', '8', '--seed', '11', '--instances', '2']);
    const s = summary(r.out);
    assert.equal(r.code, 0, r.out);
    assert.equal(s.violations, 0, r.out);
    assert.match(r.out, /instance starts: 1\/1/);
  });
});
