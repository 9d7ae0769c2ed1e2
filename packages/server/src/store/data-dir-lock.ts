import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {}

/** An empty or unreadable lock younger than this is a process still starting, not a dead one. */
export const EMPTY_LOCK_GRACE_MS = 5_000;
const LOCK_FILE = 'cambio.lock';
/** Directories this process holds (by path), so one process never opens one directory twice either. */
const held = new Map<string, { file: string; print: LockPrint }>();
/** What identifies one lock file: an inode number alone may be reused once a file is deleted. */
interface LockPrint {
  pid: number | null;
  mtimeMs: number;
  ino: number;
}
const samePrint = (a: LockPrint | null, b: LockPrint) => a !== null && a.ino === b.ino && a.mtimeMs === b.mtimeMs && a.pid === b.pid;
let exitHook = false;

/**
 * PGlite has no lock between processes, and two processes on one directory lose data. The lock file
 * holds the owner's pid. It is created whole and atomically: the pid goes into a private file first,
 * which is then hard-linked into place (link fails with EEXIST when a lock exists).
 *
 * A lock whose process is gone, or that names this very pid (a container restarted with the same pid),
 * is stale; an empty or unreadable lock is held unless older than EMPTY_LOCK_GRACE_MS. A stale lock is
 * removed only by the holder of a second lock, `cambio.lock.takeover` (made the same way), after it
 * checks again that the lock is the very file it judged stale: two processes that both saw it stale
 * never remove each other's fresh lock.
 */
export function lockDirectory(dir: string): () => void {
  const file = join(dir, LOCK_FILE);
  const takeover = join(dir, `${LOCK_FILE}.takeover`);
  if (held.has(dir)) throw inUse(dir, `process ${process.pid} (this one)`);
  for (let attempt = 0; attempt < 300; attempt++) {
    const mine = tryLink(dir, file);
    if (mine !== null) return hold(dir, file, mine);
    const holder = readLock(file);
    if (holder === null) continue; // released between link and read: try again
    const by = heldBy(holder);
    if (by !== null) throw inUse(dir, by);
    const mutex = tryLink(dir, takeover);
    if (mutex === null) {
      // Another process is taking over right now (for microseconds), or died doing it.
      const other = readLock(takeover);
      if (other !== null && heldBy(other) === null) renameAsideIfSame(dir, takeover, other);
      sleepMs(10);
      continue;
    }
    try {
      if (samePrint(readLock(file), holder)) rmSync(file, { force: true });
    } finally {
      rmSync(takeover, { force: true });
    }
  }
  throw new DataDirLockedError(`could not lock the data directory ${dir}: other processes keep taking it; stop them first`);
}

/** Who holds a lock file, or null when it is stale. */
function heldBy(l: LockPrint): string | null {
  if (l.pid === null)
    return Date.now() - l.mtimeMs < EMPTY_LOCK_GRACE_MS ? 'a process that is starting (the lock file is still empty)' : null;
  if (l.pid === process.pid) return null;
  return alive(l.pid) ? `process ${l.pid}` : null;
}

function inUse(dir: string, by: string): DataDirLockedError {
  return new DataDirLockedError(
    `the data directory ${dir} is in use by ${by}; stop it first, or set DATA_DIR to another directory (or DATABASE_URL to share a PostgreSQL server between processes)`,
  );
}

/** Links a complete lock file (our pid) into place; what identifies it, or null when a lock exists. */
function tryLink(dir: string, file: string): LockPrint | null {
  const tmp = join(dir, `${LOCK_FILE}.${process.pid}.${randomBytes(6).toString('hex')}`);
  writeFileSync(tmp, String(process.pid), { flag: 'wx' });
  try {
    linkSync(tmp, file);
    const st = statSync(tmp);
    return { pid: process.pid, mtimeMs: st.mtimeMs, ino: st.ino };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw e;
  } finally {
    rmSync(tmp, { force: true });
  }
}

function readLock(file: string): LockPrint | null {
  try {
    const st = statSync(file);
    let text = '';
    try {
      text = readFileSync(file, 'utf8').trim();
    } catch {
      /* unreadable: judged by age */
    }
    const pid = /^[0-9]{1,10}$/.test(text) ? Number(text) : null;
    return { pid: pid !== null && pid > 0 ? pid : null, mtimeMs: st.mtimeMs, ino: st.ino };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * Removes a stale takeover lock left by a process that died taking over: renamed aside, then checked to
 * be the very file judged stale; if another process replaced it in between, it is put back.
 */
function renameAsideIfSame(dir: string, file: string, stale: LockPrint): void {
  const aside = join(dir, `${LOCK_FILE}.stale.${process.pid}.${randomBytes(6).toString('hex')}`);
  try {
    renameSync(file, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  if (!samePrint(readLock(aside), stale)) {
    try {
      linkSync(aside, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  rmSync(aside, { force: true });
}

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function hold(dir: string, file: string, print: LockPrint): () => void {
  held.set(dir, { file, print });
  if (!exitHook) {
    exitHook = true;
    // A process that exits without closing the store (a fatal error) leaves no lock behind.
    process.once('exit', () => {
      for (const d of [...held.keys()]) release(d);
    });
  }
  return () => release(dir);
}

/** Removes the lock only while it is still ours (same file, same pid). */
function release(dir: string): void {
  const h = held.get(dir);
  if (!h) return;
  held.delete(dir);
  try {
    if (samePrint(readLock(h.file), h.print)) rmSync(h.file, { force: true });
  } catch {
    /* best effort: a lock left behind names a dead pid, which the next start takes over */
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
