import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PGliteOptions } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { AUTH_CHANNEL, AuthChanges, PgAuthListener } from './auth-changes.ts';
import { lockDirectory } from './data-dir-lock.ts';
import { vacuumHotTables } from './maintenance.ts';
import { FailoverPool } from './failover-pool.ts';
import { migrationProvider } from './migrations/index.ts';
import { parsePgHosts } from './pg-hosts.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import { preparingClient } from './prepared-client.ts';
import type { Database } from './schema.ts';
import type { WebhookWakes } from './webhook-wakes.ts';

export type Db = Kysely<Database>;
export interface OpenedDb {
  db: Db;
  kind: 'postgres' | 'pglite';
  /** Whether this process is the only one that opens the store (PGlite: its data directory is locked). */
  ownedByOneProcess: boolean;
  /**
   * The upkeep the database does not do by itself, run every few minutes: PGlite runs no autovacuum, so
   * its hot tables are vacuumed and analysed (maintenance.ts); PostgreSQL needs nothing. Answers the tables done.
   */
  maintain(): Promise<string[]>;
  /**
   * Starts hearing the store's notifications of changes to what authentication reads (migration 014),
   * once; on PostgreSQL that opens one more connection, kept until close. `retryMs`: how soon a dropped
   * listening connection is opened again.
   */
  authChanges(opts?: { retryMs?: number }): Promise<AuthChanges>;
  /**
   * PostgreSQL: the delivery worker's nudges reach the other instances (a NOTIFY, at most one every
   * RELAY_GAP_MS) and theirs reach this one (heard on the connection that listens for auth changes,
   * opened now if it is not yet). PGlite: nothing to do, no other instance opens its store.
   */
  shareWebhookWakes(wakes: WebhookWakes): void;
  /**
   * Runs `f`, a worker that lasts as long as the service, with a handle whose statements do not wait
   * behind the requests' under load: on PostgreSQL a pooled connection held while `f` runs (not with a
   * pool of one, which holding would take from every request); on PGlite its transactions take the one
   * connection before the requests waiting for it.
   */
  onWorkerLane<T>(f: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The channel the delivery worker's nudges go out on between instances. */
const WEBHOOKS_CHANNEL = 'cambio_webhooks';
/** Nudges made within this long of each other go out to the other instances as one NOTIFY. */
const RELAY_GAP_MS = 10;

// numeric and int8 stay strings: amounts become bigint in the store, never a JS number.
pg.types.setTypeParser(1700, (v: string) => v);
pg.types.setTypeParser(20, (v: string) => v);

const CONNECT_TIMEOUT_MS = 3000;

/**
 * `log`: where PostgreSQL's failovers are told (a lost primary, a new one). `image`: PGlite only, a
 * migrated data directory (`dumpDataDir`) a new store starts from instead of an empty one; a store that
 * already exists ignores it. The migrations still run (finding nothing to do). A store in memory also
 * takes the image as a function making a PGlite filesystem that already holds it (no tarball to read).
 */
export async function openDatabase(opts: {
  databaseUrl?: string | undefined;
  dataDir: string;
  poolSize?: number;
  log?: (message: string) => void;
  image?: Blob | (() => NonNullable<PGliteOptions['fs']>) | undefined;
}): Promise<OpenedDb> {
  if (opts.databaseUrl) {
    const poolSize = opts.poolSize ?? 16;
    const changes = new AuthChanges(false);
    const ours = new Set<number>();
    const pidOf = (c: pg.PoolClient) => (c as unknown as { processID?: number }).processID;
    const Prepared = preparingClient();
    // A host that does not answer (not even with a refusal) counts as down after this long.
    class Client extends Prepared {
      constructor(c?: pg.ClientConfig) {
        super({ ...c, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
      }
    }
    // One pg pool on the primary at a time (failover-pool.ts): a multi-host DATABASE_URL is followed
    // through a failover without a restart, and a standby is never written to.
    const pool = new FailoverPool({
      hosts: parsePgHosts(opts.databaseUrl),
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      ...(opts.log ? { log: opts.log } : {}),
      makePool: (connectionString, check) => {
        const p = new pg.Pool({ connectionString, max: poolSize, Client, onConnect: check, keepAlive: true });
        // Every connection hears the auth notifications and passes on its own: a session gets them before its
        // COMMIT returns, so a change made by this instance reaches its cache before the change's request is
        // answered. `ours`: the backends doing so (their LISTEN ran before any other statement on them).
        p.on('connect', (client) => {
          const pid = pidOf(client);
          client.on('notification', (n) => {
            if (n.channel === AUTH_CHANNEL && n.processId === pid) changes.changed(n.payload);
          });
          client.query(`listen ${AUTH_CHANNEL}`).then(
            () => {
              if (pid !== undefined) ours.add(pid);
            },
            () => {},
          );
        });
        p.on('remove', (client) => {
          const pid = pidOf(client);
          if (pid !== undefined) ours.delete(pid);
        });
        return p;
      },
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    await migrate(db);
    let listener: PgAuthListener | null = null;
    // The listening connection hears the delivery worker's nudges from the start (whoever opens it first).
    let heardWake = () => {};
    const others = new Map([[WEBHOOKS_CHANNEL, () => heardWake()]]);
    const listen = async (retryMs?: number) => {
      if (listener) return;
      listener = new PgAuthListener(
        () => pool.connectClient('cambio-auth-listener'),
        changes,
        (pid) => ours.has(pid),
        retryMs,
        others,
      );
      await listener.start();
    };
    return {
      db,
      kind: 'postgres',
      ownedByOneProcess: false,
      maintain: async () => [],
      authChanges: async (o = {}) => {
        await listen(o.retryMs);
        return changes;
      },
      shareWebhookWakes: (wakes) => {
        heardWake = wakes.heard;
        let queued = false;
        wakes.relayTo(() => {
          if (queued) return;
          queued = true;
          setTimeout(() => {
            queued = false;
            // Only a hint (the other instances poll too): a failure is not worth more than the next nudge.
            sql`select pg_notify(${WEBHOOKS_CHANNEL}, '')`.execute(db).catch(() => undefined);
          }, RELAY_GAP_MS).unref();
        });
        void listen().catch(() => undefined);
      },
      onWorkerLane: (f) => (poolSize > 1 ? db.connection().execute(f) : f(db)),
      close: async () => {
        try {
          await listener?.close();
        } finally {
          await db.destroy();
        }
      },
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  // The requests' handle and the urgent one over the same connection (pglite-dialect.ts).
  const handles = (client: InstanceType<typeof PGlite>) => {
    const dialect = new PGliteDialect(client);
    return { db: new Kysely<Database>({ dialect }), urgent: new Kysely<Database>({ dialect: dialect.urgentTwin() }) };
  };
  const embedded = (db: Db, urgent: Db) => ({
    ownedByOneProcess: true,
    maintain: () => vacuumHotTables(db),
    onWorkerLane: <T>(f: (db: Db) => Promise<T>) => f(urgent),
  });
  // One connection, in this process: it hears its own notifications before each COMMIT returns, always.
  const hearing = async (client: InstanceType<typeof PGlite>) => {
    const changes = new AuthChanges(true);
    await client.listen(AUTH_CHANNEL, changes.changed);
    return changes;
  };
  if (opts.dataDir === 'memory://') {
    const client = await PGlite.create(
      typeof opts.image === 'function' ? { fs: opts.image() } : opts.image ? { loadDataDir: opts.image } : {},
    );
    // In memory a file grows by copying it whole into a larger array, so a new 16 MB WAL segment
    // zero-filled 8 kB at a time costs some 100 MB of copying; without zero-filling it is sized at once.
    // The one session of the process keeps the setting. (Zero-filling is for disks, and there is none.)
    await client.exec('set wal_init_zero = off');
    const { db, urgent } = handles(client);
    await migrate(db);
    const changes = await hearing(client);
    return {
      db,
      kind: 'pglite',
      ...embedded(db, urgent),
      authChanges: async () => changes,
      shareWebhookWakes: () => undefined,
      close: () => db.destroy(),
    };
  }
  const dir = resolve(opts.dataDir);
  mkdirSync(dir, { recursive: true });
  const unlock = lockDirectory(dir);
  try {
    const pgdata = join(dir, 'pgdata');
    if (typeof opts.image === 'function') throw new Error('an image as a filesystem is for a store in memory');
    const fresh = opts.image && !existsSync(join(pgdata, 'PG_VERSION'));
    const client = await PGlite.create(pgdata, fresh ? { loadDataDir: opts.image } : {});
    const { db, urgent } = handles(client);
    await migrate(db);
    const changes = await hearing(client);
    // The lock is released even when closing the database fails.
    return {
      db,
      kind: 'pglite',
      ...embedded(db, urgent),
      authChanges: async () => changes,
      shareWebhookWakes: () => undefined,
      close: async () => {
        try {
          await db.destroy();
        } finally {
          unlock();
        }
      },
    };
  } catch (e) {
    unlock();
    throw e;
  }
}

/**
 * Brings a store to the newest schema; a store already there is left as it is. Migrations are numbered in
 * ranges written in parallel, so one may land after a higher number already ran: each runs once, in any order.
 */
export async function migrate(db: Db) {
  const { error, results } = await new Migrator({ db, provider: migrationProvider, allowUnorderedMigrations: true }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}

export { DataDirLockedError } from './data-dir-lock.ts';
