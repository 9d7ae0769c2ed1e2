import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';

const root = new URL('../../../', import.meta.url).pathname;
const STRONG = randomBytes(48).toString('base64');
const PROD = { CAMBIO_MODE: 'production', CAMBIO_SECRET: STRONG };

function refused(env: Record<string, string>, variable: string): string {
  let message = '';
  assert.throws(
    () => loadConfig(env),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      message = e.message;
      return true;
    },
  );
  assert.match(message, new RegExp(`${variable} must`), message);
  return message;
}

describe('production refuses weak settings at start, naming the variable', () => {
  test('CAMBIO_SECRET of low entropy: 32 × a, a short repeated piece, too few different characters', () => {
    for (const weak of ['a'.repeat(32), 'abcd'.repeat(8), '0123456789abcdef'.repeat(2), 'ab'.repeat(40), 'password'.repeat(4)]) {
      const m = refused({ CAMBIO_MODE: 'production', CAMBIO_SECRET: weak }, 'CAMBIO_SECRET');
      assert.ok(!m.includes(weak), 'the value is never repeated');
    }
    for (const strong of [STRONG, randomBytes(32).toString('hex'), 'test-secret-0123456789abcdef0123456789'])
      assert.equal(loadConfig({ CAMBIO_MODE: 'production', CAMBIO_SECRET: strong }).secret, strong);
  });

  test('OPERATOR_TOKEN of 16 × a (or another guessable one) is refused; a random one is taken', () => {
    for (const weak of ['a'.repeat(16), 'abab'.repeat(6), '1111222211112222']) refused({ ...PROD, OPERATOR_TOKEN: weak }, 'OPERATOR_TOKEN');
    const token = randomBytes(24).toString('base64url');
    assert.equal(loadConfig({ ...PROD, OPERATOR_TOKEN: token }).operatorToken, token);
  });

  test('an all-zero (or repeated-byte) CAMBIO_LOG_SIGNING_KEY is refused: anyone could sign checkpoints', () => {
    for (const seed of [Buffer.alloc(32), Buffer.alloc(32, 7), Buffer.from('0123456789abcdef0123456789abcdef')])
      refused({ ...PROD, CAMBIO_LOG_SIGNING_KEY: seed.toString('base64') }, 'CAMBIO_LOG_SIGNING_KEY');
    const good = randomBytes(32);
    assert.deepEqual(loadConfig({ ...PROD, CAMBIO_LOG_SIGNING_KEY: good.toString('base64') }).logSigningKey, good);
  });

  test('an http:// CAMBIO_VENUE_URL for a host other than this machine is refused; https, or http on loopback, is taken', () => {
    const venue = { ...PROD, CAMBIO_VENUE: 'ccxt:binance', CAMBIO_VENUE_API_KEY: 'k', CAMBIO_VENUE_SECRET: 's' };
    for (const url of ['http://testnet.binance.vision', 'http://10.0.0.5:8443', 'http://venue.internal'])
      refused({ ...venue, CAMBIO_VENUE_URL: url }, 'CAMBIO_VENUE_URL');
    for (const url of ['https://testnet.binance.vision', 'http://127.0.0.1:9000', 'http://localhost:9000', 'http://[::1]:9000'])
      assert.equal(loadConfig({ ...venue, CAMBIO_VENUE_URL: url }).venue.kind, 'ccxt');
  });

  test('the sandbox keeps its habits: a simple secret, token and seed are accepted there', () => {
    const c = loadConfig({
      CAMBIO_SECRET: 'x'.repeat(32),
      OPERATOR_TOKEN: 'a'.repeat(16),
      CAMBIO_LOG_SIGNING_KEY: Buffer.alloc(32).toString('base64'),
    });
    assert.equal(c.mode, 'sandbox');
  });
});

/** `npm start` as production runs it (tsx), until it listens or exits; then SIGTERM. */
function start(env: Record<string, string>): Promise<{ code: number | null; out: string; url: string | null }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: '', OPERATOR_TOKEN: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let url: string | null = null;
    const on = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m && !url) {
        url = m[1]!;
        resolve({ code: null, out, url });
      }
    };
    p.stdout.on('data', on);
    p.stderr.on('data', on);
    p.once('exit', (code) => resolve({ code, out, url: null }));
    after.push(() => new Promise<void>((done) => (p.exitCode !== null ? done() : (p.once('exit', () => done()), p.kill('SIGTERM')))));
  });
}
const after: Array<() => Promise<void>> = [];

describe('a production start', () => {
  test('with a weak CAMBIO_SECRET exits 1 and says which variable, without repeating it', async () => {
    const r = await start({ CAMBIO_MODE: 'production', CAMBIO_SECRET: 'a'.repeat(32), DATA_DIR: 'memory://' });
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /CAMBIO_SECRET must be random/);
    assert.ok(!r.out.includes('a'.repeat(32)));
  });

  test('on an empty store writes the bootstrap token to a file only its user reads, and prints only where', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cambio-token-file-'));
    try {
      const r = await start({ CAMBIO_MODE: 'production', CAMBIO_SECRET: STRONG, DATA_DIR: dir });
      assert.ok(r.url, r.out);
      const file = join(dir, 'operator-token');
      assert.match(r.out, new RegExp(`operator token written to ${file} \\(readable by this user only\\)`));
      assert.doesNotMatch(r.out, /op_[A-Za-z0-9_-]{20,}/, 'no token in the log');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      const token = readFileSync(file, 'utf8').trim();
      const staff = await fetch(`${r.url}/operator/v1/staff`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(staff.status, 200, 'the token in the file is the one that works');
    } finally {
      for (const stop of after.splice(0)) await stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
