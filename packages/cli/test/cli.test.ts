import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { CambioOperator } from '@cambio/sdk';
import { makeHarness, OPERATOR_TOKEN, type Harness } from '../../server/test/harness.ts';

const BIN = fileURLToPath(new URL('../bin/cambio.js', import.meta.url));

interface Run { code: number | null; stdout: string; stderr: string }

/** Spawns the real `cambio` binary (a new process, as a script would). */
function cambio(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    p.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the cambio CLI, spawned against a real server', () => {
  let h: Harness;
  let home: string;
  let env: Record<string, string>;
  let key: string;
  let orgId: string;

  before(async () => {
    h = await makeHarness();
    const base = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const op = new CambioOperator({ token: OPERATOR_TOKEN, baseUrl: base });
    await op.market.putAsset('USD', 2);
    await op.market.putAsset('BTC', 8);
    await op.market.putPair('BTC', 'USD', { midRate: '65000.00', spreadBps: 100, feeBps: 10, fixedFeeQuoteMinor: 0n, minBaseMinor: 10_000n, maxBaseMinor: 10n ** 12n });
    await op.wallets.put('USD', { network: 'wire', address: 'usd-acct-0001' });
    const org = await op.organizations.create({ name: 'Terminal Co', status: 'active', limits: {} });
    const member = await op.members.add(org.id, { name: 'Ana', email: 'ana@terminal.test', permissions: ['portal:read', 'portal:trade', 'portal:deposit', 'portal:destinations', 'portal:withdraw', 'portal:api_keys'] });
    key = (await op.keys.issue(member.id, { scopes: ['portal:read', 'portal:trade', 'portal:deposit', 'portal:destinations', 'portal:withdraw'] })).key;
    await op.organizations.adjust(org.id, { assetSymbol: 'BTC', amountMinor: 10n ** 8n, reason: 'funding' });
    orgId = org.id;
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
    const [human, json, fromFile, wallets, badKey, usage, tooPrecise] = await Promise.all([
      cambio(['balances'], env),
      cambio(['balances', '--json'], env),
      cambio(['client', '--json'], { HOME: home, CAMBIO_CONFIG: cfg }),
      cambio(['deposit', 'wallets'], env),
      cambio(['client'], { ...env, CAMBIO_API_KEY: `${key.slice(0, -4)}XXXX` }),
      cambio(['quote', 'BTC', 'USD'], env),
      cambio(['quote', 'BTC', 'USD', '--sell', '0.000000001'], env),
    ]);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^ASSET\s+AVAILABLE\s+HELD\s+TOTAL\nBTC\s+1\.00000000\s+0\.00000000\s+1\.00000000\n$/);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), [{ assetSymbol: 'BTC', assetDecimals: 8, amountMinor: '100000000', heldMinor: '0', totalMinor: '100000000' }]);
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.equal(JSON.parse(fromFile.stdout).id, orgId);
    assert.match(wallets.stdout, /USD\s+wire\s+\S*usd-acct-0001\n/);
    assert.equal(badKey.code, 3, 'authentication failures exit 3');
    assert.match(badKey.stderr, /^error: auth\.unauthenticated: .+ \(traceId [0-9a-f-]{36}\)\n$/);
    assert.equal(usage.code, 1, 'a usage error exits 1');
    assert.match(usage.stderr, /exactly one of --sell and --receive/);
    assert.equal(tooPrecise.code, 1);
    assert.match(tooPrecise.stderr, /more than 8 decimals/);
    const secret = key.split('.')[1]!;
    for (const r of [human, json, fromFile, wallets, badKey]) assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret.slice(0, -4)), 'the key is never echoed');
  });

  test('trade: quote with a decimal amount, order, refusal of a used quote (exit 2), operator approval', async () => {
    const quote = await cambio(['quote', 'btc', 'usd', '--sell', '0.5', '--json'], env);
    assert.equal(quote.code, 0, quote.stderr);
    const q = JSON.parse(quote.stdout);
    assert.deepEqual([q.amountBaseMinor, q.amountQuoteMinor, q.rateQuoteMinor], ['50000000', '3217500', '6435000']);

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
    assert.deepEqual(JSON.parse(pending.stdout).map((o: { id: string; organizationId: string }) => [o.id, o.organizationId]), [[orderId, orgId]]);

    const approve = await cambio(['operator', 'orders', 'approve', orderId], { ...env, OPERATOR_TOKEN });
    assert.equal(approve.code, 0, approve.stderr);
    assert.match(approve.stdout, /state\s+completed/);
    const balances = (await h.call(key, 'GET', '/balances')).body.data as Array<{ assetSymbol: string; amountMinor: string }>;
    assert.deepEqual(balances.map((b) => [b.assetSymbol, b.amountMinor]), [['BTC', '50000000'], ['USD', '3217500']]);

    const audit = await cambio(['operator', 'audit', '--subject', orderId, '--json'], { ...env, OPERATOR_TOKEN });
    assert.equal(audit.code, 0, audit.stderr);
    assert.deepEqual(JSON.parse(audit.stdout).map((a: { action: string }) => a.action).sort(), ['order.approve', 'order.complete']);
    const table = await cambio(['operator', 'audit', '--action', 'order.approve'], { ...env, OPERATOR_TOKEN });
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, new RegExp(`order\\.approve\\s+order ${orderId}`));
  });

  test('deposit and withdraw groups: declare with the API\'s decimals, register a destination, list', async () => {
    const [declare, register, noOperator, unreachable] = await Promise.all([
      cambio(['deposit', 'declare', 'USD', '100', '--json'], env),
      cambio(['withdraw', 'register', '--label', 'Main', '--asset', 'usd', '--bank', 'Banco Uno', '--kind', 'checking', '--account', '0001-2345-6789', '--holder', 'Terminal Co', '--document', 'J-1234567'], env),
      cambio(['operator', 'reconciliation', 'status'], env),
      cambio(['client'], { ...env, CAMBIO_BASE_URL: 'http://127.0.0.1:9' }),
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
    assert.deepEqual(JSON.parse(destinations.stdout).map((x: { label: string; usable: boolean }) => [x.label, x.usable]), [['Main', false]]);
    assert.equal(list.stdout, '(none)\n');
  });
});
