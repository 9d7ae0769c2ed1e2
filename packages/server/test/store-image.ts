/**
 * One migrated store per test run, copied for every harness: migrating a new store is most of what a
 * harness costs to open, and every harness would migrate the same schema.
 *
 * - PGlite: a dump of a migrated data directory, written once to the system's temporary directory and
 *   read by every test process; each store loads it (`openDatabase`'s `image`) instead of running initdb.
 * - PostgreSQL: a template database, migrated once under an advisory lock (the test runner runs files in
 *   parallel processes); each test database is `create database … template` it.
 *
 * Both are named by a hash of the migrations (file names and texts) and, for PGlite, its version (the
 * format of the dump): changed migrations make a new one, and the one they replace is removed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { migrate, openDatabase, type Db } from '../src/store/db.ts';
import { PGliteDialect } from '../src/store/pglite-dialect.ts';
import type { Database } from '../src/store/schema.ts';

const MIGRATIONS = fileURLToPath(new URL('../src/store/migrations/', import.meta.url));

function migrationsHash(extra = ''): string {
  const h = createHash('sha256').update(extra);
  for (const name of readdirSync(MIGRATIONS).sort()) h.update(`\0${name}\0`).update(readFileSync(join(MIGRATIONS, name)));
  return h.digest('hex').slice(0, 16);
}

function pgliteVersion(): string {
  // The package exports no package.json; it sits above the resolved entry point (dist/).
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (;;) {
    try {
      const p = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (p.name === '@electric-sql/pglite') return p.version ?? '';
    } catch {
      /* not here: look one level up */
    }
    const up = dirname(dir);
    if (up === dir) return '';
    dir = up;
  }
}

/**
 * What migration 001 stamps with the time it runs (the platform's reconciled-since): a copy made from
 * an older image gets the time it opens, as a store migrated now would.
 */
const STAMP_OPENED = 'update platform_state set changed_at = now() where id = 1';

/** A PGlite store just loaded from the image, stamped as if migrated now. */
export async function stampOpened(db: Db): Promise<void> {
  await sql.raw(STAMP_OPENED).execute(db);
}

// ---- PGlite ----

const IMAGE_PREFIX = 'cambio-test-store-';
let image: Promise<Blob> | null = null;

/** The migrated PGlite data directory, as a tarball; built by the first process that needs it. */
export function pgliteImage(): Promise<Blob> {
  image ??= loadOrBuildImage();
  return image;
}

async function loadOrBuildImage(): Promise<Blob> {
  const name = `${IMAGE_PREFIX}${migrationsHash(`pglite ${pgliteVersion()}`)}.tar`;
  const path = join(tmpdir(), name);
  try {
    return new Blob([readFileSync(path)]);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const client = await PGlite.create();
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  let dump: Blob;
  try {
    await migrate(db);
    // Everything in the data files, so a store loaded from the dump has no log to replay.
    await client.exec('checkpoint');
    dump = await client.dumpDataDir('none');
  } finally {
    await db.destroy();
  }
  const bytes = new Uint8Array(await dump.arrayBuffer());
  // Written whole under a name of its own, then renamed: a process reading the image never sees half.
  const part = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.part`;
  writeFileSync(part, bytes);
  renameSync(part, path);
  removeStaleImages(name);
  return new Blob([bytes]);
}

/** Images of other migrations, and pieces a killed process left (an hour old: no writer is still at it). */
function removeStaleImages(current: string): void {
  const dir = tmpdir();
  for (const f of readdirSync(dir)) {
    if (!f.startsWith(IMAGE_PREFIX) || f === current) continue;
    const p = join(dir, f);
    try {
      if (f.endsWith('.tar') || Date.now() - statSync(p).mtimeMs > 3_600_000) rmSync(p, { force: true });
    } catch {
      /* another process removed it first */
    }
  }
}

// ---- PostgreSQL ----

const TEMPLATE_PREFIX = 'cambio_tpl_';
let template: Promise<string> | null = null;

/** The migrated template database's name on the server of DATABASE_URL; made by the first process that needs it. */
function pgTemplate(): Promise<string> {
  template ??= ensureTemplate().catch((e: unknown) => {
    template = null;
    throw e;
  });
  return template;
}

/** Creates database `name` (through `admin`, on DATABASE_URL's server) as a copy of the template, stamped as if migrated now. */
export async function createFromTemplate(admin: pg.Client, name: string): Promise<void> {
  try {
    await admin.query(`create database ${name} template ${await pgTemplate()}`);
  } catch (e) {
    // 3D000: a run of other migrations replaced the template meanwhile; make ours again.
    if ((e as { code?: string }).code !== '3D000') throw e;
    template = null;
    await admin.query(`create database ${name} template ${await pgTemplate()}`);
  }
  const c = new pg.Client({ connectionString: urlOf(name) });
  await c.connect();
  try {
    await c.query(STAMP_OPENED);
  } finally {
    await c.end();
  }
}

function urlOf(database: string): string {
  const u = new URL(process.env.DATABASE_URL!);
  u.pathname = `/${database}`;
  return u.toString();
}

async function ensureTemplate(): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${migrationsHash()}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL! });
  await admin.connect();
  try {
    // One process makes it; the others wait here and then find it made.
    await admin.query(`select pg_advisory_lock(hashtext('cambio test store template'))`);
    const found = await admin.query<{ datname: string; datistemplate: boolean }>(
      `select datname, datistemplate from pg_database where datname like '${TEMPLATE_PREFIX}%'`,
    );
    const ours = found.rows.find((r) => r.datname === name);
    if (ours?.datistemplate) return name;
    // Templates of other migrations go; so does ours when it is not marked a template yet: a process
    // that was making it died halfway.
    for (const r of found.rows) {
      if (r.datistemplate) await admin.query(`alter database ${r.datname} is_template false`);
      try {
        await admin.query(`drop database ${r.datname}`);
      } catch {
        // Being copied by a run of those migrations right now: left to the next run that makes one.
        if (r.datistemplate) await admin.query(`alter database ${r.datname} is_template true`);
      }
    }
    await admin.query(`create database ${name}`);
    const opened = await openDatabase({ databaseUrl: urlOf(name), dataDir: 'memory://', poolSize: 1 });
    await opened.close();
    // Marked last: the mark says it is complete. No connections: a copy needs the template unused.
    await admin.query(`alter database ${name} with is_template true allow_connections false`);
    return name;
  } finally {
    await admin.end();
  }
}
