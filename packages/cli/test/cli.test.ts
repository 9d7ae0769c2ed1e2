import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CambioOperator } from '@cambio/sdk';
import { makeHarness, OPERATOR_TOKEN, PASSWORD, type Harness } from '../../server/test/harness.ts';
import { cambioBundle } from './cambio-bundle.ts';

// The command bundled once from the sources (cambio-bundle.ts): bin/cambio.js would load them through tsx in every process.
let bundle: { file: string; remove: () => void } | null = null;
before(async () => {
  bundle = await cambioBundle();
});
after(() => {
  bundle?.remove();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns the `cambio` command (a new process, as a script would). */
function cambio(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [bundle!.file, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    p.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A port on which nothing listens: connecting to it is refused (ECONNREFUSED). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('the cambio CLI, spawned against a real server', () => {
  let h: Harness;
  let home: string;
  let env: Record<string, string>;
  let key: string;
  let orgId: string;
  let memberId: string;
  let op: CambioOperator;

  before(async () => {
    // No cooldown: a destination is usable as soon as the operator registers it in the market.
    h = await makeHarness({ env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
    const base = await h.app.listen({ port: 0, host: '127.0.0.1' });
    op = new CambioOperator({ token: OPERATOR_TOKEN, baseUrl: base });
    await op.market.putAsset('USD', 2);
    await op.market.putAsset('BTC', 8);
    await op.market.putPair('BTC', 'USD', {
      midRate: '65000.00',
      spreadBps: 100,
      feeBps: 10,
      fixedFeeQuoteMinor: 0n,
      minBaseMinor: 10_000n,
      maxBaseMinor: 10n ** 12n,
    });
    await op.wallets.put('USD', { network: 'wire', address: 'usd-acct-0001' });
    const org = await op.organizations.create({ name: 'Terminal Co', status: 'active', limits: {} });
    const member = await op.members.add(org.id, {
      name: 'Ana',
      email: 'ana@terminal.test',
      permissions: ['portal:read', 'portal:trade', 'portal:deposit', 'portal:destinations', 'portal:withdraw', 'portal:api_keys'],
    });
    key = (
      await op.keys.issue(member.id, {
        scopes: ['portal:read', 'portal:trade', 'portal:deposit', 'portal:destinations', 'portal:withdraw'],
      })
    ).key;
    await op.organizations.adjust(org.id, { assetSymbol: 'BTC', amountMinor: 10n ** 8n, reason: 'funding' });
    orgId = org.id;
    memberId = member.id;
    home = mkdtempSync(join(tmpdir(), 'cambio-cli-'));
    env = { HOME: home, CAMBIO_BASE_URL: base, CAMBIO_API_KEY: key };
  });
  after(async () => {
    await h?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  test('reads, in both modes; the key comes from the environment or a config file and is never printed', async () => {
    const cfg = join(home, 'cfg.json');
    writeFileSync(cfg, JSON.stringify({ apiKey: key, baseUrl: env.CAMBIO_BASE_URL }));
    chmodSync(cfg, 0o600);
    const [human, json, fromFile, wallets, badKey, usage, tooPrecise, clientHuman, ledgerHuman, ledgerJson] = await Promise.all([
      cambio(['balances'], env),
      cambio(['balances', '--json'], env),
      cambio(['client', '--json'], { HOME: home, CAMBIO_CONFIG: cfg }),
      cambio(['deposit', 'wallets'], env),
      cambio(['client'], { ...env, CAMBIO_API_KEY: `${key.slice(0, -4)}XXXX` }),
      cambio(['quote', 'BTC', 'USD'], env),
      cambio(['quote', 'BTC', 'USD', '--sell', '0.000000001'], env),
      cambio(['client'], env),
      cambio(['ledger'], env),
      cambio(['ledger', '--json', '--limit', '5'], env),
    ]);
    assert.equal(clientHuman.code, 0, clientHuman.stderr);
    assert.match(
      clientHuman.stdout,
      new RegExp(`^id\\s+${orgId}\nname\\s+Terminal Co\nstatus\\s+active\ncan operate\\s+yes\npermissions\\s+portal:read, portal:trade`),
    );
    assert.equal(ledgerHuman.code, 0, ledgerHuman.stderr);
    assert.match(ledgerHuman.stdout, /^WHEN\s+KIND\s+ACCOUNT\s+AMOUNT\s+REFERENCE\n\S+\s+adjustment\s+available\s+1\.00000000 BTC\s/);
    assert.equal(ledgerJson.code, 0, ledgerJson.stderr);
    const entries = JSON.parse(ledgerJson.stdout) as Array<{
      kind: string;
      assetSymbol: string;
      assetDecimals: number;
      amountMinor: string;
    }>;
    assert.deepEqual(
      entries.map((e) => [e.kind, e.assetSymbol, e.assetDecimals, e.amountMinor]),
      [['adjustment', 'BTC', 8, '100000000']],
    );
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^ASSET\s+AVAILABLE\s+HELD\s+TOTAL\nBTC\s+1\.00000000\s+0\.00000000\s+1\.00000000\n$/);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), [
      { assetSymbol: 'BTC', assetDecimals: 8, amountMinor: '100000000', heldMinor: '0', totalMinor: '100000000' },
    ]);
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.equal(JSON.parse(fromFile.stdout).id, orgId);
    assert.match(wallets.stdout, /USD\s+wire\s+\S*usd-acct-0001\n/);
    assert.equal(badKey.code, 3, 'authentication failures exit 3');
    assert.match(badKey.stderr, /^error: auth\.unauthenticated: .+ \(traceId [0-9a-f-]{36}\)\n$/);
    assert.equal(usage.code, 1, 'a usage error exits 1');
    assert.match(usage.stderr, /exactly one of --sell and --receive/);
    assert.equal(tooPrecise.code, 1);
    assert.match(tooPrecise.stderr, /more than 8 decimals/);
    // A pair the market does not price: said so, with the pairs it does, whatever the organization holds.
    const [notPriced, notPricedJson] = await Promise.all([
      cambio(['quote', 'DOGE', 'USD', '--sell', '100'], env),
      cambio(['--json', 'quote', 'DOGE', 'USD', '--sell', '100'], env),
    ]);
    assert.equal(notPriced.code, 1, notPriced.stderr);
    assert.equal(notPriced.stdout, '');
    assert.match(notPriced.stderr, /DOGE\/USD is not priced; the priced pairs are BTC\/USD \(cambio pairs\)/);
    assert.doesNotMatch(notPriced.stderr, /decimals/);
    assert.equal(JSON.parse(notPricedJson.stderr).error.code, 'cli.usage');
    const secret = key.split('.')[1]!;
    for (const r of [human, json, fromFile, wallets, badKey])
      assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret.slice(0, -4)), 'the key is never echoed');
  });

  test('trade: quote with a decimal amount, order, refusal of a used quote (exit 2), operator approval', async () => {
    const [quote, quoteHuman] = await Promise.all([
      cambio(['quote', 'btc', 'usd', '--sell', '0.5', '--json'], env),
      cambio(['quote', 'BTC', 'USD', '--sell', '0.01'], env),
    ]);
    assert.equal(quote.code, 0, quote.stderr);
    const q = JSON.parse(quote.stdout);
    assert.deepEqual([q.amountBaseMinor, q.amountQuoteMinor, q.rateQuoteMinor], ['50000000', '3217500', '6435000']);
    assert.equal(quoteHuman.code, 0, quoteHuman.stderr);
    assert.match(
      quoteHuman.stdout,
      /^quote\s+quo_\S+\nyou deliver\s+0\.01000000 BTC\nyou receive\s+643\.50 USD\nrate\s+64350\.00 USD per BTC\nexpires at\s+\S+\n\naccept it with: cambio order quo_\S+\n$/,
    );

    const order = await cambio(['order', q.id], env);
    assert.equal(order.code, 0, order.stderr);
    assert.match(order.stdout, /state\s+pending_approval/);
    assert.match(order.stdout, /deliver\s+0\.50000000 BTC/);
    assert.match(order.stdout, /receive\s+32175\.00 USD/);
    const orderId = /order\s+(ord_\S+)/.exec(order.stdout)![1]!;

    const [again, pending] = await Promise.all([
      cambio(['order', q.id, '--json'], env),
      cambio(['operator', 'orders', 'list', '--state', 'pending_approval', '--json'], { ...env, OPERATOR_TOKEN }),
    ]);
    assert.equal(again.code, 2, 'an API refusal exits 2');
    assert.equal(JSON.parse(again.stderr).error.code, 'orders.quote_already_used');
    assert.equal(JSON.parse(again.stderr).error.status, 410);
    assert.deepEqual(
      JSON.parse(pending.stdout).map((o: { id: string; organizationId: string }) => [o.id, o.organizationId]),
      [[orderId, orgId]],
    );

    // An order in --json mode: a second quote, accepted by a script.
    const q2 = JSON.parse((await cambio(['--json', 'quote', 'BTC', 'USD', '--sell', '0.1'], env)).stdout);
    const orderJson = await cambio(['--json', 'order', q2.id], env);
    assert.equal(orderJson.code, 0, orderJson.stderr);
    const o2 = JSON.parse(orderJson.stdout);
    assert.deepEqual([o2.quoteId, o2.state, o2.base.amountMinor, o2.quote.amountMinor], [q2.id, 'pending_approval', '10000000', '643500']);
    assert.equal(orderJson.stderr, '', 'nothing was lost, so no note');

    const [ordersHuman, ordersJson] = await Promise.all([cambio(['orders'], env), cambio(['orders', '--json', '--all'], env)]);
    assert.equal(ordersHuman.code, 0, ordersHuman.stderr);
    assert.match(
      ordersHuman.stdout,
      new RegExp(
        `^ORDER\\s+STATE\\s+DELIVER\\s+RECEIVE\\s+CREATED\\s+REASON\n${o2.id}\\s+pending_approval\\s+0\\.10000000 BTC\\s+6435\\.00 USD\\s+\\S+\\s+-\n${orderId}\\s+pending_approval\\s+0\\.50000000 BTC\\s+32175\\.00 USD`,
      ),
    );
    assert.equal(ordersJson.code, 0, ordersJson.stderr);
    assert.deepEqual(
      JSON.parse(ordersJson.stdout).map((o: { id: string }) => o.id),
      [o2.id, orderId],
    );
    const reject = await cambio(['operator', 'orders', 'reject', o2.id, '--reason', 'test'], { ...env, OPERATOR_TOKEN });
    assert.equal(reject.code, 0, reject.stderr);

    const approve = await cambio(['operator', 'orders', 'approve', orderId], { ...env, OPERATOR_TOKEN });
    assert.equal(approve.code, 0, approve.stderr);
    assert.match(approve.stdout, /state\s+completed/);
    const balances = (await h.call(key, 'GET', '/balances')).body.data as Array<{ assetSymbol: string; amountMinor: string }>;
    assert.deepEqual(
      balances.map((b) => [b.assetSymbol, b.amountMinor]),
      [
        ['BTC', '50000000'],
        ['USD', '3217500'],
      ],
    );

    const audit = await cambio(['operator', 'audit', '--subject', orderId, '--json'], { ...env, OPERATOR_TOKEN });
    assert.equal(audit.code, 0, audit.stderr);
    assert.deepEqual(
      JSON.parse(audit.stdout)
        .map((a: { action: string }) => a.action)
        .sort(),
      ['order.approve', 'order.complete'],
    );
    const table = await cambio(['operator', 'audit', '--action', 'order.approve'], { ...env, OPERATOR_TOKEN });
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, new RegExp(`order\\.approve\\s+order ${orderId}`));
  });

  test("deposit and withdraw groups: declare with the API's decimals, register a destination, list", async () => {
    const [declare, register, noOperator, unreachable] = await Promise.all([
      cambio(['deposit', 'declare', 'USD', '100', '--json'], env),
      cambio(
        [
          'withdraw',
          'register',
          '--label',
          'Main',
          '--asset',
          'usd',
          '--bank',
          'Banco Uno',
          '--kind',
          'checking',
          '--account',
          '0001-2345-6789',
          '--holder',
          'Terminal Co',
          '--document',
          'J-1234567',
        ],
        env,
      ),
      cambio(['operator', 'reconciliation', 'status'], env),
      cambio(['client'], { ...env, CAMBIO_BASE_URL: `http://127.0.0.1:${await closedPort()}` }),
    ]);
    assert.equal(declare.code, 0, declare.stderr);
    const d = JSON.parse(declare.stdout);
    assert.equal(d.declaredAmountMinor, '10000');
    assert.ok(BigInt(d.expectedAmountMinor) > 10000n && BigInt(d.expectedAmountMinor) < 10100n);
    assert.equal(register.code, 0, register.stderr);
    assert.match(register.stdout, /summary\s+.*6789/);
    assert.match(register.stdout, /usable\s+not yet/);
    assert.equal(noOperator.code, 1, 'no OPERATOR_TOKEN is a configuration error');
    assert.match(noOperator.stderr, /no operator token/);
    assert.equal(unreachable.code, 4, 'a service that cannot be reached exits 4 after the retries');
    assert.match(unreachable.stderr, /^error: sdk\.network_error: /);

    const [open, destinations, list] = await Promise.all([
      cambio(['deposit', 'open'], env),
      cambio(['withdraw', 'destinations', '--json'], env),
      cambio(['withdraw', 'list'], env),
    ]);
    assert.match(open.stdout, new RegExp(`send exactly\\s+${d.expectedAmount.replace('.', '\\.')} USD`));
    assert.deepEqual(
      JSON.parse(destinations.stdout).map((x: { label: string; usable: boolean }) => [x.label, x.usable]),
      [['Main', false]],
    );
    assert.equal(list.stdout, '(none)\n');
  });

  test('withdraw create: decimals from the API with a full key; --asset and --decimals with a portal:withdraw-only key; both modes', async () => {
    await op.organizations.adjust(orgId, { assetSymbol: 'USD', amountMinor: 100_000n, reason: 'funding' });
    const reg = await cambio(
      [
        '--json',
        'withdraw',
        'register',
        '--label',
        'Payout',
        '--asset',
        'USD',
        '--bank',
        'Banco Dos',
        '--kind',
        'savings',
        '--account',
        '9876543210',
        '--holder',
        'Terminal Co',
        '--document',
        'J-7654321',
      ],
      env,
    );
    assert.equal(reg.code, 0, reg.stderr);
    const destId = JSON.parse(reg.stdout).id as string;
    const notYet = await cambio(['withdraw', 'create', destId, '1.00'], env);
    assert.equal(notYet.code, 2, 'a destination not yet usable is refused (exit 2)');
    assert.match(notYet.stderr, /withdrawals\.destination_not_usable/);
    await op.destinations.registerInMarket(destId);

    const human = await cambio(['withdraw', 'create', destId, '25.00'], env);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^withdrawal\s+wdr_\S+\nstate\s+pending_approval\namount\s+25\.00 USD\ndestination\s+\S+ \(.*3210\)/);
    assert.match(human.stdout, /nothing has left yet/);

    const withdrawOnly = (await op.keys.issue(memberId, { scopes: ['portal:withdraw'] })).key;
    const wenv = { ...env, CAMBIO_API_KEY: withdrawOnly };
    const [json, tooManyDecimals, noFlags] = await Promise.all([
      cambio(['withdraw', 'create', destId, '12.34', '--asset', 'usd', '--decimals', '2', '--json'], wenv),
      cambio(['withdraw', 'create', destId, '1.234', '--asset', 'USD', '--decimals', '2'], wenv),
      cambio(['withdraw', 'create', destId, '1.00'], wenv),
    ]);
    assert.equal(json.code, 0, json.stderr);
    const w = JSON.parse(json.stdout);
    assert.deepEqual(
      [w.state, w.destinationId, w.money],
      ['pending_approval', destId, { assetSymbol: 'USD', assetDecimals: 2, amountMinor: '1234' }],
    );
    assert.equal(tooManyDecimals.code, 1);
    assert.match(tooManyDecimals.stderr, /more than 2 decimals/);
    assert.equal(noFlags.code, 1, 'without the flags a withdraw-only key cannot look the asset up: a usage error that says what to give');
    assert.match(noFlags.stderr, /--asset SYMBOL and --decimals N/);

    const [listHuman, listJson] = await Promise.all([cambio(['withdraw', 'list'], env), cambio(['withdraw', 'list', '--json'], env)]);
    assert.match(
      listHuman.stdout,
      /^WITHDRAWAL\s+STATE\s+AMOUNT\s+DESTINATION\s+CREATED\s+REASON\nwdr_\S+\s+pending_approval\s+12\.34 USD\s+.*\nwdr_\S+\s+pending_approval\s+25\.00 USD\s/,
    );
    assert.deepEqual(
      JSON.parse(listJson.stdout).map((x: { money: { amountMinor: string } }) => x.money.amountMinor),
      ['1234', '2500'],
    );
  });

  test('operator commands, one file per noun-verb: reads of every group in both modes, and a bad argument is a usage error', async () => {
    const openv = { ...env, OPERATOR_TOKEN };
    const [assets, pairs, wallets, org, destinations, withdrawals, deposits, rec, badDecimals] = await Promise.all([
      cambio(['operator', 'assets', 'list'], openv),
      cambio(['operator', 'pairs', 'list', '--json'], openv),
      cambio(['operator', 'wallets', 'list'], openv),
      cambio(['operator', 'org', 'get', orgId, '--json'], openv),
      cambio(['operator', 'destinations', 'list', '--org', orgId, '--json'], openv),
      cambio(['operator', 'withdrawals', 'list', '--state', 'pending_approval', '--json'], openv),
      cambio(['operator', 'deposits', 'list'], openv),
      cambio(['operator', 'reconciliation', 'status'], openv),
      cambio(['operator', 'assets', 'put', 'XYZ', 'two'], openv),
    ]);
    for (const r of [assets, pairs, wallets, org, destinations, withdrawals, deposits, rec]) assert.equal(r.code, 0, r.stderr);
    assert.match(assets.stdout, /^ASSET\s+DECIMALS\n(.*\n)*BTC\s+8\n(.*\n)*USD\s+2\n/);
    assert.deepEqual(
      JSON.parse(pairs.stdout).map((p: { baseSymbol: string; quoteSymbol: string; rateQuoteMinor: string }) => [
        p.baseSymbol,
        p.quoteSymbol,
        p.rateQuoteMinor,
      ]),
      [['BTC', 'USD', '6435000']],
    );
    assert.match(wallets.stdout, /USD\s+wire\s+\S*usd-acct-0001/);
    assert.equal(JSON.parse(org.stdout).name, 'Terminal Co');
    assert.ok(JSON.parse(destinations.stdout).every((d: { organizationId: string }) => d.organizationId === orgId));
    assert.ok(Array.isArray(JSON.parse(withdrawals.stdout)));
    assert.match(deposits.stdout, /^DEPOSIT\s+STATE|^\(none\)/);
    assert.match(rec.stdout, /^reconciled\s+yes/);
    assert.equal(badDecimals.code, 1);
    assert.match(badDecimals.stderr, /decimals must be a whole number/);
  });

  test('webhooks create shows the whsec_ secret once; list shows the endpoint without it; delete; a narrower key exits 3', async () => {
    const member = await op.members.add(orgId, {
      name: 'Hooks',
      email: 'hooks@terminal.test',
      permissions: ['portal:read', 'portal:webhooks', 'portal:api_keys'],
    });
    const wenv = { ...env, CAMBIO_API_KEY: (await op.keys.issue(member.id, { scopes: ['portal:webhooks'] })).key };
    const created = await cambio(
      ['webhooks', 'create', 'https://hooks.terminal.test/in', '--type', 'order.completed', 'withdrawal.completed'],
      wenv,
    );
    assert.equal(created.code, 0, created.stderr);
    const secret = /^secret\s+(whsec_[A-Za-z0-9+/]{43}=)$/m.exec(created.stdout)?.[1];
    assert.ok(secret, created.stdout);
    const id = /^webhook\s+(\S+)$/m.exec(created.stdout)![1]!;
    assert.match(
      created.stdout,
      /^url\s+https:\/\/hooks\.terminal\.test\/in\nevents\s+order\.completed, withdrawal\.completed\nstatus\s+enabled\n/m,
    );
    assert.match(created.stderr, /not shown again/);
    const [human, json, narrow] = await Promise.all([
      cambio(['webhooks', 'list'], wenv),
      cambio(['webhooks', 'list', '--json'], wenv),
      cambio(['webhooks', 'create', 'https://hooks.terminal.test/x'], env),
    ]);
    assert.equal(human.code, 0, human.stderr);
    assert.match(
      human.stdout,
      new RegExp(
        `^WEBHOOK\\s+URL\\s+EVENTS\\s+STATUS\\s+FAILING SINCE\n${id}\\s+https://hooks\\.terminal\\.test/in\\s+order\\.completed, withdrawal\\.completed\\s+enabled\\s+-\n$`,
      ),
    );
    assert.deepEqual(
      JSON.parse(json.stdout).map((w: { id: string; status: string; secret?: string }) => [w.id, w.status, w.secret]),
      [[id, 'enabled', undefined]],
    );
    for (const r of [human, json]) assert.ok(!r.stdout.includes(secret.slice(6)), 'the secret is never shown again');
    assert.equal(narrow.code, 3, 'a key without portal:webhooks is a permission failure');
    assert.match(narrow.stderr, /^error: auth\.scope_missing: /);
    const deleted = await cambio(['webhooks', 'delete', id], wenv);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(deleted.stdout, `deleted: ${id} (https://hooks.terminal.test/in)\n`);
    const after = await cambio(['webhooks', 'list', '--json'], wenv);
    assert.deepEqual(JSON.parse(after.stdout), []);
    const again = await cambio(['webhooks', 'delete', id], wenv);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /^error: webhooks\.not_found: /);
  });

  test('policy and approvals sign in as a member: set the rules from a file, list what waits, approve, reject; refusals keep their codes', async () => {
    // An organization of its own: its rules must not make the other tests' orders wait.
    const org = await op.organizations.create({ name: 'Consensus Co', status: 'active', limits: {} });
    await op.organizations.adjust(org.id, { assetSymbol: 'BTC', amountMinor: 10n ** 8n, reason: 'funding' });
    const person = async (name: string, email: string, permissions: string[]) => {
      const m = await h.op('POST', `/organizations/${org.id}/members`, { name, email, permissions });
      assert.equal(m.status, 201, m.raw);
      const token = (m.body.data.invitation.url as string).split('#')[1]!;
      const r = await h.app.inject({
        method: 'POST',
        url: '/portal/v1/invitations/accept',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ token, password: PASSWORD }),
      });
      assert.equal(r.statusCode, 200, r.body);
      return { id: m.body.data.id as string, env: { ...env, CAMBIO_API_KEY: '', CAMBIO_EMAIL: email, CAMBIO_PASSWORD: PASSWORD } };
    };
    const trader = await person('Tess', 'tess@consensus.test', ['portal:read', 'portal:trade', 'portal:api_keys', 'portal:approve']);
    const bea = await person('Bea', 'bea@consensus.test', ['portal:read', 'portal:policy', 'portal:approve']);
    const carl = await person('Carl', 'carl@consensus.test', ['portal:read', 'portal:approve']);
    const reader = await person('Rita', 'rita@consensus.test', ['portal:read']);
    const tradeKey = (await op.keys.issue(trader.id, { scopes: ['portal:read', 'portal:trade'] })).key;

    const file = join(home, 'rules.json');
    writeFileSync(file, JSON.stringify([{ action: 'order', assetSymbol: 'BTC', fromAmountMinor: '1000000', approvals: 1 }]));
    const [set, refused, noSignIn] = await Promise.all([
      cambio(['policy', 'set', '--file', file], bea.env),
      cambio(['policy', 'set', '--file', file], reader.env),
      cambio(['policy', 'show'], { ...env, CAMBIO_EMAIL: 'bea@consensus.test' }),
    ]);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /updated by\s+Bea \(/);
    assert.match(set.stdout, /#\s+ACTION\s+ASSET\s+FROM \(MINIMUM UNITS\)\s+MORE APPROVALS\n1\s+order\s+BTC\s+1000000\s+1\n$/);
    assert.equal(refused.code, 3, 'a member without portal:policy is a permission failure');
    assert.match(refused.stderr, /^error: auth\.scope_missing: /);
    assert.equal(noSignIn.code, 1, 'no password: a configuration error');
    assert.match(noSignIn.stderr, /CAMBIO_PASSWORD/);
    const shown = await cambio(['policy', 'show', '--json'], carl.env);
    assert.equal(shown.code, 0, shown.stderr);
    assert.deepEqual(JSON.parse(shown.stdout).rules, [{ action: 'order', assetSymbol: 'BTC', fromAmountMinor: '1000000', approvals: 1 }]);

    const order = async () => {
      const q = await h.call(tradeKey, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '2500000' });
      const o = await h.call(tradeKey, 'POST', '/orders', { quoteId: q.body.data.id });
      assert.equal(o.status, 201, o.raw);
      assert.equal(o.body.data.approvals.waitingFor, 'organization');
      return o.body.data.id as string;
    };
    const first = await order();
    const second = await order();
    const [list, listJson] = await Promise.all([
      cambio(['approvals', 'list'], carl.env),
      cambio(['approvals', 'list', '--json'], carl.env),
    ]);
    assert.equal(list.code, 0, list.stderr);
    assert.match(
      list.stdout,
      new RegExp(
        `^KIND\\s+REQUEST\\s+AMOUNT\\s+WHAT\\s+ASKED BY\\s+APPROVED BY\\s+MORE NEEDED\\s+CREATED\norders\\s+${first}\\s+0\\.02500000 BTC\\s+BTC/USD\\s+Tess\\s+-\\s+1\\s+\\S+\n`,
      ),
    );
    assert.deepEqual(
      JSON.parse(listJson.stdout).map((a: { kind: string; id: string; money: { amountMinor: string } }) => [
        a.kind,
        a.id,
        a.money.amountMinor,
      ]),
      [
        ['orders', first, '2500000'],
        ['orders', second, '2500000'],
      ],
    );
    // The initiator's try first: once Carl's approval meets the rule the request no longer waits at all.
    const own = await cambio(['approvals', 'approve', 'orders', first, '--json'], trader.env);
    const [approved, rejected] = await Promise.all([
      cambio(['approvals', 'approve', 'orders', first], carl.env),
      cambio(['approvals', 'reject', 'orders', second, '--reason', 'too much at once'], bea.env),
    ]);
    assert.equal(own.code, 2, 'the initiator cannot approve their own request');
    assert.equal(JSON.parse(own.stderr).error.code, 'approvals.own_request');
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(
      approved.stdout,
      /^kind\s+orders\nrequest\s+\S+\nstate\s+pending_approval\napproved by\s+Carl\nrequired\s+1\nwaiting for\s+operator\n$/,
    );
    assert.equal(rejected.code, 0, rejected.stderr);
    assert.match(rejected.stdout, /state\s+rejected/);
    const [again, badKind, empty] = await Promise.all([
      cambio(['approvals', 'approve', 'orders', first], bea.env),
      cambio(['approvals', 'approve', 'trades', first], bea.env),
      cambio(['approvals', 'list'], bea.env),
    ]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /^error: approvals\.not_waiting: /);
    assert.equal(badKind.code, 1, 'an unknown kind is a usage error');
    assert.equal(empty.stdout, '(none)\n');
    const o = await h.call(tradeKey, 'GET', `/orders/${second}`);
    assert.equal(o.body.data.state, 'rejected');
  });

  test('sandbox deposit credits the open declaration of that exact amount; webhooks test shows how the endpoint answered', async () => {
    await op.wallets.put('BTC', { network: 'bitcoin', address: 'bc1q-terminal' });
    // An organization of its own: no declaration of the other tests is open there.
    const org = await op.organizations.create({ name: 'Sandbox Co', status: 'active', limits: {} });
    const ana = await op.members.add(org.id, {
      name: 'Sol',
      email: 'sol@sandbox.test',
      permissions: ['portal:read', 'portal:deposit', 'portal:api_keys'],
    });
    const senv = { ...env, CAMBIO_API_KEY: (await op.keys.issue(ana.id, { scopes: ['portal:read', 'portal:deposit'] })).key };
    const declared = await cambio(['deposit', 'declare', 'BTC', '0.2', '--decimals', '8', '--json'], senv);
    assert.equal(declared.code, 0, declared.stderr);
    const expected = BigInt((JSON.parse(declared.stdout) as { expectedAmountMinor: string }).expectedAmountMinor);
    const whole = `${expected / 10n ** 8n}.${String(expected % 10n ** 8n).padStart(8, '0')}`;
    const arrived = await cambio(['sandbox', 'deposit', 'BTC', whole, '--txid', 'cli-sbx-1', '--decimals', '8'], senv);
    assert.equal(arrived.code, 0, arrived.stderr);
    assert.match(
      arrived.stdout,
      new RegExp(
        `^deposit\\s+dep_\\S+\nstate\\s+credited\namount\\s+${whole.replace('.', '\\.')} BTC\nnetwork\\s+bitcoin\ntxid\\s+cli-sbx-1\n$`,
      ),
    );
    const again = await cambio(['sandbox', 'deposit', 'BTC', whole, '--txid', 'cli-sbx-1', '--json'], senv);
    assert.equal(again.code, 2);
    assert.equal(JSON.parse(again.stderr).error.code, 'deposits.txid_already_recorded');

    const rx = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('received, thanks'));
    });
    await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
    try {
      const member = await op.members.add(orgId, {
        name: 'Tester',
        email: 'tester@terminal.test',
        permissions: ['portal:webhooks', 'portal:api_keys'],
      });
      const wenv = { ...env, CAMBIO_API_KEY: (await op.keys.issue(member.id, { scopes: ['portal:webhooks'] })).key };
      const url = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/in`;
      const id = /^webhook\s+(\S+)$/m.exec((await cambio(['webhooks', 'create', url], wenv)).stdout)![1]!;
      const tested = await cambio(['webhooks', 'test', id], wenv);
      assert.equal(tested.code, 0, tested.stderr);
      assert.match(
        tested.stdout,
        /^event\s+evt_test_\S+\noutcome\s+delivered\nstatus\s+200\nlatency\s+\d+ ms\nanswer\s+received, thanks\n$/,
      );
      const missing = await cambio(['webhooks', 'test', 'wh_missing'], wenv);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /^error: webhooks\.not_found: /);
    } finally {
      rx.closeAllConnections();
      await new Promise<void>((r) => rx.close(() => r()));
    }
  });

  test("--json: Commander's usage errors are JSON on stderr too; configuration errors exit 1", async () => {
    const [missingArg, unknownOption, missingCommand, badUrl, blockedPort] = await Promise.all([
      cambio(['--json', 'quote', 'BTC'], env),
      cambio(['order', 'quo_x', '--bogus', '--json'], env),
      cambio(['--json', 'withdraw'], env),
      cambio(['--json', 'client'], { ...env, CAMBIO_BASE_URL: 'localhost:8080' }),
      cambio(['client'], { ...env, CAMBIO_BASE_URL: 'http://127.0.0.1:9' }),
    ]);
    for (const [r, pattern] of [
      [missingArg, /missing required argument 'quote'/],
      [unknownOption, /unknown option '--bogus'/],
      [missingCommand, /a command is missing/],
    ] as const) {
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stdout, '');
      const e = JSON.parse(r.stderr).error;
      assert.equal(e.code, 'cli.usage');
      assert.match(e.message, pattern);
    }
    assert.equal(badUrl.code, 1, badUrl.stderr);
    assert.equal(JSON.parse(badUrl.stderr).error.code, 'sdk.configuration_error');
    assert.equal(blockedPort.code, 1, 'a port fetch refuses to use is a configuration error, not retried as a network failure');
    assert.match(blockedPort.stderr, /^error: sdk\.configuration_error: the request cannot be sent/);
  });

  test('pairs, limits, show and cancel by id, list filters, the ledger as CSV', async () => {
    const pairs = await cambio(['pairs'], env);
    assert.equal(pairs.code, 0, pairs.stderr);
    assert.match(pairs.stdout, /^BASE\s+QUOTE\s+MIN\s+MAX\nBTC\s+USD\s+0\.00010000 BTC\s+10000\.00000000 BTC\n$/);
    const client = await cambio(['client'], env);
    assert.match(client.stdout, /limits\s+no caps/);

    const q = JSON.parse((await cambio(['quote', 'BTC', 'USD', '--sell', '0.001', '--json'], env)).stdout);
    const order = JSON.parse((await cambio(['order', q.id, '--json'], env)).stdout);
    const shown = await cambio(['show', 'order', order.id], env);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /state\s+pending_approval/);
    assert.match(shown.stdout, /deliver\s+0\.00100000 BTC/);
    const cancelled = await cambio(['cancel', 'order', order.id], env);
    assert.equal(cancelled.code, 0, cancelled.stderr);
    assert.match(cancelled.stdout, /state\s+cancelled\nreleased\s+0\.00100000 BTC/);
    const again = await cambio(['cancel', 'order', order.id, '--json'], env);
    assert.equal(again.code, 2, 'a decided request is a 409 refusal');
    assert.equal(JSON.parse(again.stderr).error.status, 409);
    assert.equal((await cambio(['show', 'order', 'ord_nope'], env)).code, 2);
    assert.equal((await cambio(['show', 'thing', 'x'], env)).code, 1, 'an unknown kind is a usage error');

    const listed = JSON.parse((await cambio(['orders', '--state', 'cancelled', '--json'], env)).stdout);
    assert.ok(listed.some((o: { id: string }) => o.id === order.id));
    assert.ok(listed.every((o: { state: string }) => o.state === 'cancelled'));
    assert.deepEqual(JSON.parse((await cambio(['orders', '--all', '--from', '2999-01-01T00:00:00Z', '--json'], env)).stdout), []);
    assert.equal((await cambio(['orders', '--state', 'done'], env)).code, 2, 'the server refuses an unknown state');

    const csv = await cambio(['ledger-csv', '--asset', 'btc'], env);
    assert.equal(csv.code, 0, csv.stderr);
    const lines = csv.stdout.split('\r\n');
    assert.equal(lines[0], 'createdAt,id,entryId,kind,account,assetSymbol,assetDecimals,amount,amountMinor,referenceId,memo');
    assert.match(lines[1]!, /,adjustment,available,BTC,8,1\.00000000,100000000,,funding$/);
    assert.ok(lines.slice(1, -1).every((l) => l.includes(',BTC,8,')));
    const ledgerUsd = JSON.parse((await cambio(['ledger', '--asset', 'USD', '--json'], env)).stdout);
    assert.ok(ledgerUsd.every((e: { assetSymbol: string }) => e.assetSymbol === 'USD'));
  });

  test("statement: the month's CSV on stdout or in a file, the PDF in a file; a future month exits 2 with its code", async () => {
    const month = new Date().toISOString().slice(0, 7);
    const csv = await cambio(['statement', 'btc', month, '--statement-lang', 'en'], env);
    assert.equal(csv.code, 0, csv.stderr);
    const lines = csv.stdout.split('\r\n');
    assert.equal(lines[0], 'Date (UTC),Description,Reference,Entry,Amount,Balance,Amount (minimum units),Balance (minimum units)');
    assert.match(lines[1]!, /^\d{2}\/01\/\d{4} 00:00:00,Opening balance,,,,/);
    assert.ok(
      lines.some((l) => /,Adjustment,funding,[^,]+,1\.00000000,/.test(l)),
      csv.stdout,
    );
    assert.match(lines.at(-2)!, /,Closing balance,,,,/);

    const pdfFile = join(home, 'btc.pdf');
    const pdf = await cambio(['statement', 'BTC', month, '--format', 'pdf', '--out', pdfFile], env);
    assert.equal(pdf.code, 0, pdf.stderr);
    assert.equal(readFileSync(pdfFile).subarray(0, 5).toString('latin1'), '%PDF-');
    const csvFile = join(home, 'btc.csv');
    assert.equal((await cambio(['statement', 'BTC', month, '--out', csvFile, '--statement-lang', 'en'], env)).code, 0);
    // The current month closes at the moment each statement is made: the rest is the same file.
    const withoutClosing = (t: string) => t.split('\r\n').slice(0, -2);
    assert.deepEqual(withoutClosing(readFileSync(csvFile, 'utf8')), withoutClosing(csv.stdout));

    const future = await cambio(['statement', 'BTC', '2999-01', '--json'], env);
    assert.equal(future.code, 2, future.stderr);
    assert.equal(JSON.parse(future.stderr).error.code, 'statements.month_in_future');
    assert.equal((await cambio(['statement', 'BTC', month, '--format', 'pdf'], env)).code, 1, 'a PDF without --out is a usage error');
  });

  test('cancel declaration: the open declaration is cancelled and no longer open; again answers the same; a matched one exits 2 with deposits.declaration_not_open', async () => {
    // An organization of its own: one declaration may be open per organization, whatever the other tests left.
    const org = await op.organizations.create({ name: 'Declaring Co', status: 'active', limits: {} });
    const member = await op.members.add(org.id, {
      name: 'Dora',
      email: 'dora@declaring.test',
      permissions: ['portal:read', 'portal:deposit', 'portal:api_keys'],
    });
    const denv = { ...env, CAMBIO_API_KEY: (await op.keys.issue(member.id, { scopes: ['portal:read', 'portal:deposit'] })).key };

    const declared = await cambio(['deposit', 'declare', 'USD', '250', '--decimals', '2', '--json'], denv);
    assert.equal(declared.code, 0, declared.stderr);
    const d = JSON.parse(declared.stdout);
    assert.equal(d.state, 'open');
    const cancelled = await cambio(['cancel', 'declaration', d.id], denv);
    assert.equal(cancelled.code, 0, cancelled.stderr);
    assert.equal(
      cancelled.stdout,
      `declaration  ${d.id}\nreference    ${d.reference}\nstate        cancelled\nwas to send  ${d.expectedAmount} USD\n\n` +
        'a transfer of that amount that still arrives is not matched: it waits for manual attribution\n',
    );
    assert.equal((await cambio(['deposit', 'open'], denv)).stdout, 'no declaration is open\n');
    const again = await cambio(['cancel', 'declaration', d.id, '--json'], denv);
    assert.equal(again.code, 0, 'cancelling a cancelled declaration answers it again');
    assert.deepEqual([JSON.parse(again.stdout).id, JSON.parse(again.stdout).state], [d.id, 'cancelled']);

    // Declared again and matched by an arrival of the exact amount: no longer open, so no longer cancellable.
    const next = JSON.parse((await cambio(['deposit', 'declare', 'USD', '250', '--decimals', '2', '--json'], denv)).stdout);
    assert.notEqual(next.id, d.id);
    await op.deposits.record({
      assetSymbol: 'USD',
      network: 'wire',
      amountMinor: BigInt(next.expectedAmountMinor),
      txid: `wire-${next.reference}`,
    });
    const refused = await cambio(['cancel', 'declaration', next.id, '--json'], denv);
    assert.equal(refused.code, 2, 'a 409 refusal exits 2');
    const err = JSON.parse(refused.stderr).error;
    assert.deepEqual([err.status, err.code], [409, 'deposits.declaration_not_open']);
    assert.equal(refused.stdout, '');
    const text = await cambio(['cancel', 'declaration', next.id], denv);
    assert.equal(text.code, 2);
    assert.match(
      text.stderr,
      /^error: deposits\.declaration_not_open: The deposit declaration is no longer open \(matched\); only an open one can be cancelled\./,
    );
    const unknown = await cambio(['cancel', 'declaration', 'dcl_nope', '--json'], denv);
    assert.deepEqual([unknown.code, JSON.parse(unknown.stderr).error.code], [2, 'deposits.declaration_not_found']);
    assert.equal((await cambio(['cancel', 'quote', d.id], denv)).code, 1, 'an unknown kind is a usage error');
    const help = await cambio(['cancel', '--help'], denv);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /declaration {3}the open deposit declaration/);
  });
});

describe("the cambio CLI when a withdrawal's answer is lost", () => {
  let srv: Server;
  let base: string;
  const seen: string[] = [];

  before(async () => {
    // A service that takes the POST and breaks the connection before answering; the read-back is refused.
    srv = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.method === 'POST') {
        req.resume();
        req.on('end', () => req.socket.destroy());
        return;
      }
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          success: false,
          message: 'scope missing',
          data: null,
          code: 'auth.scope_missing',
          timestamp: new Date().toISOString(),
          traceId: 'tr-403',
          pagination: null,
        }),
      );
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((r) => srv.close(() => r()));
  });

  test('exit 6, not 4: the outcome is unknown, and the message says to read the list first (both modes)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cambio-cli-lost-'));
    try {
      const env = { HOME: home, CAMBIO_BASE_URL: base, CAMBIO_API_KEY: 'cmb_live_lost.lostlostlostlost' };
      const args = ['withdraw', 'create', 'dst_x', '5.00', '--asset', 'USD', '--decimals', '2'];
      const human = await cambio(args, env);
      assert.equal(human.code, 6, human.stderr);
      assert.match(human.stderr, /^error: sdk\.lost_response_unresolved: .*withdrawal/);
      assert.match(human.stderr, /Read `cambio withdraw list` before trying again/);
      assert.deepEqual(
        seen,
        ['POST /api/v1/withdrawals', 'GET /api/v1/withdrawals?page=1&limit=100'],
        'sent once, read once, never re-sent',
      );
      const json = await cambio([...args, '--json'], env);
      assert.equal(json.code, 6);
      const e = JSON.parse(json.stderr).error;
      assert.deepEqual([e.code, e.outcome], ['sdk.lost_response_unresolved', 'unknown']);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
