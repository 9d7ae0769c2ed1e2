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
 * format of the dump) and how the image is made (IMAGE_MAKING): changed migrations make a new one, and
 * the one they replace is removed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryFS, PGlite, type PGliteOptions } from '@electric-sql/pglite';
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
/**
 * What the image holds besides the migrated database; part of its name, so a change here makes a new one.
 * - Only the database a store opens (postgres): template0 and template1 are copies of the catalog that
 *   a PGlite store never opens, and without them a store has a third less to load.
 * - 16 MB of shared buffers, not 128 MB: every store opened allocates and clears them, and a test's
 *   store in memory holds a few megabytes.
 */
const IMAGE_MAKING = 'one database; shared_buffers 16MB';
let image: Promise<Blob> | null = null;
let imageFiles: Promise<ImageEntry[]> | null = null;

/** The migrated PGlite data directory, as a tarball; built by the first process that needs it. */
export function pgliteImage(): Promise<Blob> {
  image ??= loadOrBuildImage();
  return image;
}

interface ImageEntry {
  path: string;
  data: Uint8Array | null;
}

/**
 * The image for a store in memory (`openDatabase`'s `image` with dataDir memory://): a PGlite filesystem
 * that starts with the image's files. The tarball is read once per process; each store gets a copy of
 * the files, written straight into its own filesystem.
 */
export async function pgliteImageInMemory(): Promise<() => NonNullable<PGliteOptions['fs']>> {
  imageFiles ??= pgliteImage().then(async (b) => untar(new Uint8Array(await b.arrayBuffer())));
  const entries = await imageFiles;
  return () => new ImageFs(entries);
}

class ImageFs extends MemoryFS {
  constructor(private readonly entries: ImageEntry[]) {
    super();
  }
  override async initialSyncFs(): Promise<void> {
    await super.initialSyncFs();
    const fs = this.pg!.Module.FS;
    const root = PGlite.paths.PGDATA;
    fs.mkdirTree(root);
    // The tarball lists a directory before what it holds. writeFile copies the bytes: no two stores share a file.
    for (const e of this.entries) {
      if (e.data) fs.writeFile(root + e.path, e.data);
      else fs.mkdirTree(root + e.path);
    }
  }
}

/** The directories and regular files of a tarball as dumpDataDir writes it (ustar, paths from the data directory's root). */
function untar(tar: Uint8Array): ImageEntry[] {
  const entries: ImageEntry[] = [];
  const text = (h: Uint8Array, at: number, len: number) => {
    const f = h.subarray(at, at + len);
    const end = f.indexOf(0);
    return new TextDecoder().decode(end < 0 ? f : f.subarray(0, end));
  };
  for (let at = 0; at + 512 <= tar.length;) {
    const h = tar.subarray(at, at + 512);
    if (h.every((b) => b === 0)) break;
    const prefix = text(h, 345, 155);
    const name = (prefix ? `${prefix}/` : '') + text(h, 0, 100);
    const size = parseInt(text(h, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(h[156]!);
    at += 512;
    const path = `/${name.replace(/^\/+|\/+$/g, '')}`;
    if (type === '5') entries.push({ path, data: null });
    else if (type === '0' || type === '\0') entries.push({ path, data: tar.subarray(at, at + size) });
    else throw new Error(`store image: unexpected tar entry type ${JSON.stringify(type)} for ${name}`);
    at += Math.ceil(size / 512) * 512;
  }
  return entries;
}

async function loadOrBuildImage(): Promise<Blob> {
  const name = `${IMAGE_PREFIX}${migrationsHash(`pglite ${pgliteVersion()} ${IMAGE_MAKING}`)}.tar`;
  const path = join(tmpdir(), name);
  try {
    return new Blob([readFileSync(path)]);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const client = await PGlite.create();
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  let dump: Blob;
  try {
    await migrate(db);
    // IMAGE_MAKING
    await client.exec(`update pg_database set datistemplate = false where datname in ('template0', 'template1')`);
    await client.exec('drop database template0');
    await client.exec('drop database template1');
    await client.exec(`alter system set shared_buffers = '16MB'`);
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
