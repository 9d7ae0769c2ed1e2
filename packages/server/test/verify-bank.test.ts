import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';
import { checkOnce } from '../../../scripts/verify-bank/checker.ts';
import { History } from '../../../scripts/verify-bank/history.ts';
import type { SecretKind } from '../../../scripts/verify-bank/log-scan.ts';
import { scanStore } from '../../../scripts/verify-bank/store-scan.ts';
import {
  listAssets,
  makeHarness,
  PASSWORD,
  seedOrg,
  signedInMember,
  signedInStaff,
  withCookie,
  type Harness,
  type SeededOrg,
} from './harness.ts';

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
  let completedWithdrawalId: string;
  let orderId: string;
  let depositId: string;
  const history = new History();

  before(async () => {
    h = await makeHarness({ backend: 'postgres', env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
    await listAssets(h, { USD: 2, BTC: 8 });
    org = await seedOrg(h, { balances: { USD: 100_000n, BTC: 100_000_000n } });
    const d = await h.call(org.key, 'POST', '/withdrawals/destinations/bank', {
      label: 'Check',
      assetSymbol: 'USD',
      bankName: 'Banco',
      accountKind: 'savings',
      accountNumber: '1234-5678',
      holderName: 'H Holder',
      holderDocument: 'V0001',
    });
    assert.equal(d.status, 201, d.raw);
    await h.op('POST', `/destinations/${d.body.data.id}/register-in-market`);
    const w = await h.call(org.key, 'POST', '/withdrawals', {
      destinationId: d.body.data.id,
      assetSymbol: 'USD',
      assetDecimals: 2,
      amountMinor: '2500',
    });
    assert.equal(w.status, 201, w.raw);
    withdrawalId = w.body.data.id;
    // One of each kind of row the checker reasons about: a completed withdrawal, an order on a consumed quote, a credited arrival.
    const done = await h.call(org.key, 'POST', '/withdrawals', {
      destinationId: d.body.data.id,
      assetSymbol: 'USD',
      assetDecimals: 2,
      amountMinor: '1000',
    });
    assert.equal(done.status, 201, done.raw);
    completedWithdrawalId = done.body.data.id;
    assert.equal((await h.op('POST', `/withdrawals/${completedWithdrawalId}/approve`)).status, 200);
    const pair = await h.op('PUT', '/market/pairs/BTC/USD', {
      midRate: '60000',
      spreadBps: 50,
      feeBps: 10,
      fixedFeeQuoteMinor: '0',
      minBaseMinor: '1000',
      maxBaseMinor: '100000000',
    });
    assert.equal(pair.status, 200, pair.raw);
    const q = await h.call(org.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
    assert.equal(q.status, 201, q.raw);
    const o = await h.call(org.key, 'POST', '/orders', { quoteId: q.body.data.id });
    assert.equal(o.status, 201, o.raw);
    orderId = o.body.data.id;
    assert.equal((await h.op('PUT', '/wallets/USD', { network: 'ach', address: 'check-usd' })).status, 200);
    const decl = await h.call(org.key, 'POST', '/deposits/declarations', {
      assetSymbol: 'USD',
      assetDecimals: 2,
      declaredAmountMinor: '50000',
    });
    assert.equal(decl.status, 201, decl.raw);
    const arrival = await h.op('POST', '/deposits', {
      assetSymbol: 'USD',
      network: 'ach',
      amountMinor: decl.body.data.expectedAmountMinor,
      txid: 'checker-self-test-1',
    });
    assert.equal(arrival.status, 201, arrival.raw);
    depositId = arrival.body.data.id;
    client = new pg.Client({ connectionString: h.config.databaseUrl });
    await client.connect();
    const credited = await client.query(`select count(*)::int as n from journal_entries where reference_id = $1 and kind = 'deposit'`, [
      depositId,
    ]);
    assert.equal(credited.rows[0].n, 1, 'the arrival matched its declaration and was credited once');
  });
  after(async () => {
    await client?.end();
    await h?.close();
  });

  const problems = async () => (await checkOnce(client, history, true)).problems;
  const named = (ps: string[], invariant: string) => ps.filter((p) => p.startsWith(`${invariant}:`));

  /** Breaks the database with `breakIt`, checks, and always puts it back with `repair`. */
  async function whileBroken(breakIt: string, repair: string, values: unknown[]): Promise<string[]> {
    await client.query(breakIt, values);
    try {
      return await problems();
    } finally {
      await client.query(repair, values);
    }
  }

  /**
   * A second journal entry of `kind` for the request `$1`, with a copy of the first one's postings (each
   * entry still sums to zero), as a retried settlement or credit would write it; and its removal.
   */
  const duplicateEntry = (kind: string): [string, string] => [
    `with e as (insert into journal_entries (id, kind, organization_id, reference_id, memo, created_at)
       select id || '_dup', kind, organization_id, reference_id, memo, created_at from journal_entries where reference_id = $1 and kind = '${kind}' returning id)
     insert into postings (entry_id, owner_id, asset_symbol, account_kind, amount, created_at, entry_kind, reference_id, memo)
       select j.id || '_dup', p.owner_id, p.asset_symbol, p.account_kind, p.amount, p.created_at, p.entry_kind, p.reference_id, p.memo
       from postings p join journal_entries j on j.id = p.entry_id where j.reference_id = $1 and j.kind = '${kind}' and exists (select 1 from e)`,
    `with p as (delete from postings where entry_id in (select id from journal_entries where reference_id = $1 and id like '%\\_dup'))
     delete from journal_entries where reference_id = $1 and id like '%\\_dup'`,
  ];

  test('a consistent database passes; rows no client announced are reported until they are', async () => {
    const before = await problems();
    assert.deepEqual(
      before.filter((p) => !p.startsWith('nothing exists that no request created:')),
      [],
    );
    assert.ok(
      named(before, 'nothing exists that no request created').some((p) => p.includes(withdrawalId)),
      before.join('\n'),
    );
    // Announce every row, as the workload's clients would have seen them in 201s.
    for (const [kind, table, where] of [
      ['withdrawal', 'withdrawals', ''],
      ['destination', 'withdrawal_destinations', ''],
      ['adjustment', 'journal_entries', `where kind = 'adjustment'`],
      ['order', 'orders', ''],
      ['declaration', 'deposit_declarations', ''],
      ['deposit', 'deposits', ''],
    ] as const) {
      for (const r of (await client.query(`select id from ${table} ${where}`)).rows) history.created.get(kind)!.set(r.id, '');
    }
    assert.deepEqual(await problems(), []);
  });

  test('a balance that is not the sum of its postings, and a total that moved without a recorded flow', async () => {
    const ps = await whileBroken(
      `update accounts set balance = balance + 7 where owner_id = $1 and kind = 'available' and asset_symbol = 'USD'`,
      `update accounts set balance = balance - 7 where owner_id = $1 and kind = 'available' and asset_symbol = 'USD'`,
      [org.orgId],
    );
    assert.equal(named(ps, 'every balance is the sum of its postings').length, 1, ps.join('\n'));
    assert.match(named(ps, 'totals change only by adjustments, arrivals, completed withdrawals and executed orders')[0] ?? '', /USD/);
    assert.deepEqual(await problems(), []);
  });

  test('an entry that does not sum to zero', async () => {
    const ps = await whileBroken(
      `insert into postings (entry_id, owner_id, asset_symbol, account_kind, amount, created_at, entry_kind, reference_id, memo) select id, 'platform', 'USD', 'revenue', 1, now(), kind, reference_id, memo from journal_entries where kind = 'adjustment' and organization_id = $1 limit 1`,
      `delete from postings where account_kind = 'revenue' and owner_id = 'platform' and amount = 1 and $1::text is not null`,
      [org.orgId],
    );
    assert.equal(named(ps, 'every journal entry sums to zero per asset').length, 1, ps.join('\n'));
  });

  test('a request completed without its settlement, and held money no request explains', async () => {
    const ps = await whileBroken(
      `update withdrawals set state = 'completed' where id = $1`,
      `update withdrawals set state = 'pending_approval' where id = $1`,
      [withdrawalId],
    );
    assert.ok(
      named(ps, 'every request is held once and settled or released at most once').some((p) => p.includes(withdrawalId)),
      ps.join('\n'),
    );
    assert.ok(named(ps, 'held equals the active holds and the pending requests').length >= 1, ps.join('\n'));
    assert.ok(
      named(ps, 'totals change only by adjustments, arrivals, completed withdrawals and executed orders').length >= 1,
      ps.join('\n'),
    );
  });

  test('a negative organization balance', async () => {
    // The CHECK constraint forbids it; the checker must still see it if the constraint were ever dropped.
    await client.query('alter table accounts drop constraint accounts_org_non_negative');
    try {
      const ps = await whileBroken(
        `update accounts set balance = -balance - 1 where owner_id = $1 and kind = 'held' and asset_symbol = 'USD'`,
        `update accounts set balance = -balance - 1 where owner_id = $1 and kind = 'held' and asset_symbol = 'USD'`,
        [org.orgId],
      );
      assert.equal(named(ps, 'no organization balance is negative').length, 1, ps.join('\n'));
    } finally {
      await client.query(`alter table accounts add constraint accounts_org_non_negative check (owner_id = 'platform' or balance >= 0)`);
    }
  });

  test('books that disagree with the venue', async () => {
    const ps = await whileBroken(
      `update venue_balances set amount = amount + 1 where asset_symbol = $1`,
      `update venue_balances set amount = amount - 1 where asset_symbol = $1`,
      ['USD'],
    );
    assert.equal(named(ps, 'the books agree with the venue (minus the market account = venue balance)').length, 1, ps.join('\n'));
  });

  test('revenue that is not the margin of the fills, and a market account that is not the recorded flows (checked in both modes)', async () => {
    const revenue = await whileBroken(
      `insert into accounts (owner_id, asset_symbol, kind, balance) values ('platform', $1, 'revenue', 5) on conflict (owner_id, asset_symbol, kind) do update set balance = accounts.balance + 5`,
      `update accounts set balance = balance - 5 where owner_id = 'platform' and kind = 'revenue' and asset_symbol = $1`,
      ['USD'],
    );
    const margin = (ps: string[]) => ps.filter((p) => p.startsWith("the platform's margin accounts balance"));
    assert.deepEqual(
      margin(revenue).map((p) => p.split(': ').slice(1).join(': ')),
      ['USD: revenue 5, margin of completed orders 0'],
      revenue.join('\n'),
    );
    const market = await whileBroken(
      `update accounts set balance = balance + 3 where owner_id = 'platform' and kind = 'market' and asset_symbol = $1`,
      `update accounts set balance = balance - 3 where owner_id = 'platform' and kind = 'market' and asset_symbol = $1`,
      ['USD'],
    );
    assert.equal(margin(market).length, 1, market.join('\n'));
    assert.match(margin(market)[0]!, /USD: the books say the platform holds -?\d+ at the market, its recorded flows \d+/);
    // Production has no venue books: only the desk's figures, through the margin invariant, speak for the market.
    await client.query(`update venue_balances set amount = amount + 1 where asset_symbol = 'USD'`);
    try {
      assert.equal(named(await problems(), 'the books agree with the venue (minus the market account = venue balance)').length, 1);
      assert.deepEqual((await checkOnce(client, history, true, 'production')).problems, []);
    } finally {
      await client.query(`update venue_balances set amount = amount - 1 where asset_symbol = 'USD'`);
    }
    assert.deepEqual(await problems(), []);
  });

  test('an arrival credited twice', async () => {
    const [breakIt, repair] = duplicateEntry('deposit');
    const ps = await whileBroken(breakIt, repair, [depositId]);
    assert.ok(
      named(ps, 'every arrival is credited exactly once').some((p) => p.includes(depositId) && p.includes('entries 2,0,0')),
      ps.join('\n'),
    );
    assert.deepEqual(await problems(), []);
  });

  test('an order whose quote is not consumed', async () => {
    const { quote_id: quoteId, consumed_at: consumedAt } = (
      await client.query(`select q.id as quote_id, q.consumed_at from orders o join quotes q on q.id = o.quote_id where o.id = $1`, [
        orderId,
      ])
    ).rows[0];
    assert.ok(consumedAt, 'accepting the quote consumed it');
    await client.query('update quotes set consumed_at = null where id = $1', [quoteId]);
    let ps: string[];
    try {
      ps = await problems();
    } finally {
      await client.query('update quotes set consumed_at = $2 where id = $1', [quoteId, consumedAt]);
    }
    assert.deepEqual(
      named(ps, 'every order consumed its quote'),
      [`every order consumed its quote: order ${orderId} exists but its quote is not consumed`],
      ps.join('\n'),
    );
    assert.deepEqual(await problems(), []);
  });

  test('a settlement written twice', async () => {
    const [breakIt, repair] = duplicateEntry('withdrawal_settlement');
    const ps = await whileBroken(breakIt, repair, [completedWithdrawalId]);
    assert.ok(
      named(ps, 'every request is held once and settled or released at most once').some(
        (p) => p.includes(completedWithdrawalId) && p.includes('1 hold, 2 settlement and 0 release'),
      ),
      ps.join('\n'),
    );
    assert.deepEqual(await problems(), []);
  });

  test('a 201 that is not in the database, and a 200 decision the request does not show', async () => {
    history.created.get('order')!.set('ord_never_written', 'q');
    history.decided(withdrawalId, 'rejected');
    const ps = await problems();
    history.created.get('order')!.delete('ord_never_written');
    history.decisions.delete(withdrawalId);
    assert.deepEqual(named(ps, 'every 201 a client saw exists'), [
      'every 201 a client saw exists: order ord_never_written answered 201 but is not in the database',
    ]);
    assert.ok(named(ps, 'every decision that answered 200 is the state of its request')[0]?.includes(withdrawalId), ps.join('\n'));
  });

  test("the store scan: a person's secrets are nowhere readable after signing in, TOTP, keys and tokens; one stored readable is reported", async () => {
    const member = await signedInMember(h, org.orgId);
    const key = await withCookie(
      h,
      member.cookie,
      'POST',
      '/portal/v1/api-keys',
      { scopes: ['portal:read'] },
      { 'idempotency-key': 'scan-1' },
    );
    assert.equal(key.status, 201, key.raw);
    const staff = await signedInStaff(h, 'admin');
    const token = await withCookie(h, staff.cookie, 'POST', '/operator/v1/tokens', { name: 'scan' }, { 'idempotency-key': 'scan-2' });
    assert.equal(token.status, 201, token.raw);
    const invited = await h.op('POST', `/organizations/${org.orgId}/members`, { name: 'Later', email: 'later@scan.test', permissions: [] });
    const secrets: Array<[string, SecretKind]> = [
      [PASSWORD, 'password'],
      [member.cookie.split('=')[1]!, 'session id'],
      [staff.cookie.split('=')[1]!, 'session id'],
      [staff.totpSecret!, 'TOTP secret'],
      [key.body.data.key, 'portal API key'],
      [token.body.data.token, 'staff token'],
      [String(invited.body.data.invitation.url).split('#')[1]!, 'invitation token'],
      [org.key, 'API key'],
    ];
    const clean = await scanStore(client, secrets);
    assert.deepEqual(clean.found, []);
    assert.ok(clean.tables >= 20 && clean.rows >= 50 && clean.secrets === secrets.length, JSON.stringify({ ...clean, found: undefined }));
    const t = token.body.data.token as string;
    await client.query('update staff_tokens set name = $1 where id = $2', [t, token.body.data.id]);
    try {
      const found = (await scanStore(client, secrets)).found;
      assert.equal(found.length, 1, found.join('\n'));
      assert.match(found[0]!, /^the staff token ops_… is stored readable in staff_tokens: /);
      assert.ok(!found[0]!.includes(t.split('.')[1]!), 'the report never shows the secret');
    } finally {
      await client.query('update staff_tokens set name = $1 where id = $2', ['scan', token.body.data.id]);
    }
  });
});

/** Runs the real command; resolves with its output and exit code. */
function verifyBank(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'scripts/verify-bank/main.ts', ...args], {
      cwd: root,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.once('exit', (code) => resolve({ code, out }));
  });
}

function summary(out: string) {
  const m = /^(\d+) operations, (\d+) kills, (\d+) checks, (\d+) violations$/m.exec(out);
  assert.ok(m, `no summary line in:\n${out}`);
  assert.ok(out.trimEnd().endsWith(m[0]), `the summary is the last line:\n${out}`);
  return { ops: Number(m[1]), kills: Number(m[2]), checks: Number(m[3]), violations: Number(m[4]) };
}

/** The secret scan of the services' output: it read request lines (the services ran at `info`) and looked for every kind of secret. */
function logScan(out: string) {
  const m = /^log scan: (\d+) lines read \((\d+) request lines\); looked for (\d+) secrets of (\d+) kinds \((.*)\); (\d+) found$/m.exec(
    out,
  );
  assert.ok(m, `no log scan line in:\n${out}`);
  const [lines, requestLines, , , kinds, found] = [Number(m[1]), Number(m[2]), m[3], m[4], m[5]!, Number(m[6])];
  for (const kind of [
    'operator token',
    'server secret',
    'API key',
    'API key secret',
    'stored key hash',
    'account number',
    'account number digits',
    'holder document',
    'password',
    'session id',
    'invitation token',
    'TOTP secret',
    'recovery code',
    'portal API key',
    'staff token',
  ]) {
    assert.match(kinds, new RegExp(`(^|, )${kind} ×[1-9]`), `the scan did not look for any ${kind}: ${m[0]}`);
  }
  assert.equal(found, 0, m[0]);
  assert.ok(requestLines > 0 && lines >= requestLines, m[0]);
  // The same secrets in the store, every row of every table: none readable.
  const st = /^store scan: (\d+) rows of (\d+) tables read; looked for (\d+) secrets; (\d+) found$/m.exec(out);
  assert.ok(st, `no store scan line in:\n${out}`);
  assert.ok(Number(st[1]) > 0 && Number(st[3]) >= 20, st[0]);
  assert.equal(Number(st[4]), 0, st[0]);
  return { lines, requestLines };
}

const ci = process.env.CI === 'true' || process.env.CI === '1';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
async function redisAnswers(url: string): Promise<boolean> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await r.connect();
    await r.ping();
    return true;
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

describe('verify:bank, short runs with fixed seeds', { skip }, () => {
  test('8 clients for 6 s on one instance: no violation', { timeout: 120_000 }, async () => {
    const r = await verifyBank(['--seconds', '6', '--clients', '8', '--seed', '42', '--log-level', 'info']);
    const s = summary(r.out);
    assert.equal(r.code, 0, r.out);
    assert.equal(s.violations, 0, r.out);
    assert.ok(s.ops > 200 && s.checks > 0, r.out);
    // Every request answered was received, and each one received wrote its line, which the scan read.
    assert.ok(logScan(r.out).requestLines >= s.ops, r.out);
    assert.match(r.out, /^rate limits: off /m);
    // Every kind of operation ran: reads, orders, deposits, destinations, withdrawals and the operator's side.
    assert.doesNotMatch(r.out, /not available yet/, r.out);
    for (const op of ['order', 'withdraw', 'approve-withdrawals', 'approve-orders', 'arrival'])
      assert.match(r.out, new RegExp(`^  ${op} +.*20[01]×`, 'm'), r.out);
  });

  test('8 clients for 8 s with the process SIGKILLed and restarted: no violation, nothing half-done', { timeout: 150_000 }, async () => {
    const r = await verifyBank(['--seconds', '8', '--clients', '8', '--seed', '7', '--kill-every', '4000', '--log-level', 'info']);
    const s = summary(r.out);
    assert.equal(r.code, 0, r.out);
    assert.ok(s.kills >= 1, r.out);
    assert.equal(s.violations, 0, r.out);
    logScan(r.out);
  });

  test(
    'production: 8 clients for 8 s with kills, the simulated desk records fills and payouts: no violation, nothing left approved',
    { timeout: 180_000 },
    async () => {
      const r = await verifyBank([
        '--seconds',
        '8',
        '--clients',
        '8',
        '--seed',
        '5',
        '--kill-every',
        '4000',
        '--mode',
        'production',
        '--log-level',
        'info',
      ]);
      const s = summary(r.out);
      assert.equal(r.code, 0, r.out);
      assert.match(r.out, /^verify:bank seed 5: production,/m);
      assert.ok(s.kills >= 1, r.out);
      assert.equal(s.violations, 0, r.out);
      assert.match(r.out, /^desk: recorded the outcome of every approved request /m, r.out);
      // The desk recorded fills, payouts and failures; no reconciliation against a venue ran (there is none).
      for (const op of ['desk-fill-orders', 'approve-orders']) assert.match(r.out, new RegExp(`^  ${op} +.*200×`, 'm'), r.out);
      // Every withdrawal approved during the run was paid out or failed by the desk (the drain at the end included).
      if (/^ {2}approve-withdrawals +.*200×/m.test(r.out)) assert.match(r.out, /^ {2}desk-(payout|fail)-withdrawals +.*200×/m, r.out);
      assert.doesNotMatch(r.out, /^ {2}reconcile /m, r.out);
      logScan(r.out);
    },
  );

  test('two instances on one database, rate limits shared in Redis: no violation', { timeout: 120_000 }, async (t) => {
    const redis = await redisAnswers(redisUrl);
    // CI provides Redis: there, without it, the shared limits would go untested, and that is a failure.
    assert.ok(redis || !ci, `CI=true but Redis does not answer at ${redisUrl}`);
    const r = await verifyBank([
      '--seconds',
      '6',
      '--clients',
      '8',
      '--seed',
      '11',
      '--instances',
      '2',
      '--redis-url',
      redisUrl,
      '--log-level',
      'info',
    ]);
    const s = summary(r.out);
    assert.equal(r.code, 0, r.out);
    assert.equal(s.violations, 0, r.out);
    assert.match(r.out, /instance starts: 1\/1/);
    logScan(r.out);
    if (redis) {
      assert.match(r.out, /^rate limits: Redis at \S+ shared by 2 instance\(s\)/m, r.out);
      const probe = /^rate-limit store: (\d+) client requests across 2 instance\(s\) moved the shared Redis counters by (\d+)$/m.exec(
        r.out,
      );
      assert.ok(probe && Number(probe[1]) > 0 && probe[1] === probe[2], r.out);
    } else {
      assert.match(r.out, /^rate limits: OFF, not shared/m, r.out);
      t.diagnostic(`no Redis at ${redisUrl}: the two instances ran without shared limits (CI would fail here)`);
    }
  });

  test('a run that cannot start still ends with the summary line and the reason', { timeout: 60_000 }, async () => {
    const bad = await verifyBank(['--seconds', 'soon']);
    assert.equal(bad.code, 2, bad.out);
    assert.deepEqual(summary(bad.out), { ops: 0, kills: 0, checks: 0, violations: 0 });
    assert.match(bad.out, /could not finish: --seconds must be a whole number/);
    const noDb = await verifyBank(['--seconds', '2', '--seed', '1', '--database-url', 'postgres://postgres@127.0.0.1:1/none']);
    assert.equal(noDb.code, 2, noDb.out);
    summary(noDb.out);
    assert.match(noDb.out, /could not finish: .*ECONNREFUSED/);
    assert.match(noDb.out, /replay with: npm run verify:bank -- --seconds 2 --clients 8 --seed 1/);
  });
});
