import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { DataDirLockedError, EMPTY_LOCK_GRACE_MS, lockDirectory } from '../src/store/data-dir-lock.ts';
import { openDatabase } from '../src/store/db.ts';

const root = new URL('../../../', import.meta.url).pathname;
const dbModule = new URL('../src/store/data-dir-lock.ts', import.meta.url).pathname;

/** The pid of a process that has exited (and, on this machine, not been reused since). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout.toString());
}

describe('the PGlite directory lock', () => {
  let dir: string;
  let lockFile: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cambio-lock-'));
    lockFile = join(dir, 'cambio.lock');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('a fresh directory is locked with this pid, and released', () => {
    const unlock = lockDirectory(dir);
    assert.equal(readFileSync(lockFile, 'utf8'), String(process.pid));
    assert.deepEqual(readdirSync(dir), ['cambio.lock'], 'no temporary file is left behind');
    unlock();
    assert.equal(existsSync(lockFile), false);
  });

  test('a stale lock of a dead process is taken over', () => {
    writeFileSync(lockFile, String(deadPid()));
    const unlock = lockDirectory(dir);
    assert.equal(readFileSync(lockFile, 'utf8'), String(process.pid));
    assert.deepEqual(readdirSync(dir), ['cambio.lock']);
    unlock();
  });

  test('a lock holding our own pid is stale (a container restarted with the same pid)', () => {
    writeFileSync(lockFile, String(process.pid));
    const unlock = lockDirectory(dir);
    assert.equal(readFileSync(lockFile, 'utf8'), String(process.pid));
    unlock();
  });

  test('a live other process refuses with the clear message', () => {
    writeFileSync(lockFile, String(process.ppid));
    assert.throws(
      () => lockDirectory(dir),
      (e: unknown) => {
        assert.ok(e instanceof DataDirLockedError);
        assert.match(e.message, new RegExp(`the data directory .* is in use by process ${process.ppid}; stop it first, or set DATA_DIR`));
        return true;
      },
    );
    assert.equal(readFileSync(lockFile, 'utf8'), String(process.ppid), 'the live lock is left alone');
  });

  test('an empty lock is held while young, and stale once old', () => {
    writeFileSync(lockFile, '');
    assert.throws(() => lockDirectory(dir), /in use by a process that is starting/);
    const old = (Date.now() - EMPTY_LOCK_GRACE_MS - 60_000) / 1000;
    utimesSync(lockFile, old, old);
    const unlock = lockDirectory(dir);
    assert.equal(readFileSync(lockFile, 'utf8'), String(process.pid));
    unlock();
  });

  test('one process never locks one directory twice', () => {
    const unlock = lockDirectory(dir);
    assert.throws(() => lockDirectory(dir), /in use by process \d+ \(this one\)/);
    unlock();
    lockDirectory(dir)();
  });

  test('releasing never removes a lock that is no longer ours', () => {
    const unlock = lockDirectory(dir);
    rmSync(lockFile);
    writeFileSync(lockFile, String(process.ppid));
    unlock();
    assert.equal(readFileSync(lockFile, 'utf8'), String(process.ppid));
  });

  test('closing the store releases the lock even when closing the database fails', async () => {
    const opened = await openDatabase({ dataDir: dir });
    assert.equal(readFileSync(lockFile, 'utf8'), String(process.pid));
    const destroy = opened.db.destroy.bind(opened.db);
    opened.db.destroy = async () => {
      await destroy();
      throw new Error('close failed');
    };
    await assert.rejects(opened.close(), /close failed/);
    assert.equal(existsSync(lockFile), false);
  });

  test('processes racing for one directory (over a stale lock): exactly one wins', async () => {
    writeFileSync(lockFile, String(deadPid()));
    // The winner keeps its lock until every racer has answered (then it is killed).
    const script = `import { lockDirectory } from ${JSON.stringify(dbModule)};
      try { lockDirectory(${JSON.stringify(dir)}); console.log('WON'); setTimeout(() => {}, 60_000); }
      catch (e) { console.log(e.constructor.name === 'DataDirLockedError' ? 'REFUSED' : 'ERROR ' + e.message); }`;
    const children = Array.from({ length: 6 }, () =>
      spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root }),
    );
    try {
      const runs = await Promise.all(
        children.map(
          (p) =>
            new Promise<string>((resolve) => {
              let out = '';
              const done = () => resolve(out.trim());
              p.stdout.on('data', (d) => {
                out += d;
                if (/WON|REFUSED|ERROR/.test(out)) done();
              });
              p.stderr.on('data', (d) => (out += d));
              p.once('exit', done);
            }),
        ),
      );
      assert.equal(runs.filter((r) => r === 'WON').length, 1, runs.join(' | '));
      assert.equal(runs.filter((r) => r === 'REFUSED').length, 5, runs.join(' | '));
    } finally {
      for (const p of children) p.kill('SIGKILL');
    }
  });
});
