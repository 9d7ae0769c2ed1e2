import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';

const root = new URL('../../../', import.meta.url).pathname;

/** Starts the service as `npm start` does and collects what it prints until it exits (or is stopped once listening). */
function start(env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: '', DATA_DIR: '', CAMBIO_MODE: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('listening on')) p.kill('SIGTERM');
    });
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.once('exit', (code) => resolve({ code, out, err }));
  });
}

const PRODUCTION = { CAMBIO_MODE: 'production', CAMBIO_SECRET: 'start-errors-test-secret-0123456789abcdef', CAMBIO_SEED_DEMO: 'false' };

describe('what a failed or risky start prints', () => {
  test('a database that cannot be reached: one line naming DATABASE_URL (without its password), no stack trace', async () => {
    const r = await start({ ...PRODUCTION, DATABASE_URL: 'postgres://cambio:s3cret@127.0.0.1:1/cambio' });
    assert.equal(r.code, 1);
    const lines = r.err.trim().split('\n');
    assert.equal(lines.length, 1, r.err);
    assert.match(
      lines[0]!,
      /^cambio: cannot open the database at DATABASE_URL postgres:\/\/cambio@127\.0\.0\.1:1\/cambio: .+ \(is PostgreSQL running/,
    );
    assert.doesNotMatch(r.err, /s3cret|\n\s+at /);
  });

  test(
    'a database that does not exist (PostgreSQL): one line saying so and how to create it',
    { skip: process.env.DATABASE_URL ? false : 'set DATABASE_URL to run it against PostgreSQL' },
    async () => {
      const u = new URL(process.env.DATABASE_URL!);
      u.pathname = '/cambio_missing_start_errors';
      const r = await start({ ...PRODUCTION, DATABASE_URL: u.toString() });
      assert.equal(r.code, 1);
      assert.equal(r.err.trim().split('\n').length, 1, r.err);
      assert.match(
        r.err,
        /^cambio: cannot open the database at DATABASE_URL .*cambio_missing_start_errors: database "cambio_missing_start_errors" does not exist \(create the database first/,
      );
    },
  );

  test('HOST=999.1.1.1 is reported as a HOST problem, not as CAMBIO_PUBLIC_URL', async () => {
    const r = await start({ HOST: '999.1.1.1', DATA_DIR: 'memory://' });
    assert.equal(r.code, 1);
    assert.match(r.err, /HOST must be an IP address or a host name, without scheme or port \(got "999\.1\.1\.1"\)/);
    assert.doesNotMatch(r.err, /CAMBIO_PUBLIC_URL|\n\s+at /);
  });

  test('production on DATA_DIR=memory:// starts, after a warning that everything is lost when it stops', async () => {
    const r = await start({ ...PRODUCTION, DATA_DIR: 'memory://' });
    assert.match(r.out, /listening on/);
    assert.match(
      r.err,
      /^cambio: WARNING: CAMBIO_MODE=production with DATA_DIR=memory:\/\/ keeps every record in memory only: .*LOST when the process stops/m,
    );
    const sandbox = await start({ DATA_DIR: 'memory://', CAMBIO_SEED_DEMO: 'false' });
    assert.match(sandbox.out, /listening on/);
    assert.doesNotMatch(sandbox.err, /WARNING/, 'the sandbox in memory is what it is for');
  });
});
