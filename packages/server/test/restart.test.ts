import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';

const root = new URL('../../../', import.meta.url).pathname;

/** Starts `npm start`'s entry point as a real process and resolves once it listens. */
function start(env: Record<string, string>): Promise<{ out: () => string; url: string; stop: () => Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m)
        resolve({
          out: () => out,
          url: m[1]!,
          stop: () =>
            new Promise((r) => {
              p.once('exit', (code) => r(code));
              p.kill('SIGTERM');
            }),
        });
    };
    p.stdout.on('data', onData);
    p.stderr.on('data', onData);
    p.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

function run(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0', DATABASE_URL: '', ...env },
    });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.once('exit', (code) => resolve({ code, out }));
  });
}

describe('npm start on the embedded store', () => {
  test('first start seeds the demo and prints the key and token once; a restart keeps balances and keys', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cambio-restart-'));
    try {
      const a = await start({ DATA_DIR: dir });
      const key = /demo API key \(shown once\): (\S+)/.exec(a.out())![1]!;
      assert.match(a.out(), /operator token \(shown once\): op_/);
      const c1 = await (await fetch(`${a.url}/api/v1/client`, { headers: { 'x-api-key': key } })).json();
      assert.equal(c1.data.name, 'Demo Treasury');
      assert.equal(c1.data.canOperate, true);
      const b1 = await (await fetch(`${a.url}/api/v1/balances`, { headers: { 'x-api-key': key } })).json();
      assert.equal(await a.stop(), 0, 'SIGTERM exits cleanly');

      const b = await start({ DATA_DIR: dir });
      assert.doesNotMatch(b.out(), /shown once/, 'nothing is printed twice');
      const b2 = await (await fetch(`${b.url}/api/v1/balances`, { headers: { 'x-api-key': key } })).json();
      assert.deepEqual(b2.data, b1.data);
      assert.deepEqual(
        b2.data.map((x: { assetSymbol: string; assetDecimals: number }) => [x.assetSymbol, x.assetDecimals]),
        [
          ['BTC', 8],
          ['USD', 2],
        ],
      );

      // a second process on the same directory is refused with a clear message while the first runs
      const second = await run({ DATA_DIR: dir });
      assert.equal(second.code, 1);
      assert.match(second.out, /in use by process \d+/);
      assert.equal(await b.stop(), 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('invalid configuration stops the start with a clear message', async () => {
    const r = await run({ DATA_DIR: 'memory://', PORT: 'eighty', CAMBIO_MODE: 'live' });
    assert.equal(r.code, 1);
    assert.match(r.out, /PORT must be a whole number/);
    assert.match(r.out, /CAMBIO_MODE must be sandbox or production/);
  });
});
