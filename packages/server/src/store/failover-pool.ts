import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import pg from 'pg';
import type { PgHosts } from './pg-hosts.ts';
import { isStoreUnavailable, StoreUnavailableError } from './store-unavailable.ts';

export interface FailoverPoolOptions {
  hosts: PgHosts;
  /**
   * A pg pool on one host. `check` is its `onConnect`: it refuses a new connection to a server that is not
   * the primary, so a demoted host is never written to through a connection opened after the demotion.
   */
  makePool(url: string, check: (client: pg.ClientBase) => Promise<void>): pg.Pool;
  /** How long opening one connection (and the primary check) may take before that host counts as down. */
  connectTimeoutMs?: number;
  /** After a search found no primary, how long connections fail at once instead of searching again. */
  retryGapMs?: number;
  log?: (message: string) => void;
}

interface Current {
  index: number;
  pool: pg.Pool;
}

/**
 * The service's PostgreSQL pool over one or several hosts (node-postgres takes one): a pg pool on the host
 * that is the primary, found by trying each host in order as libpq does with
 * `target_session_attrs=read-write` (a server in recovery or read-only is passed over). Any connection-class
 * failure (store-unavailable.ts: a broken connection, a server shutting down, a read-only transaction)
 * destroys that connection and makes the next `connect` look for the primary again; when it is on another
 * host the old pool is drained (its connections in use end when released). While no host is the primary,
 * `connect` fails with StoreUnavailableError, at once for `retryGapMs` after each fruitless search.
 */
export class FailoverPool implements PostgresPool {
  #current: Current | null = null;
  #suspect = true;
  #searching: Promise<Current> | null = null;
  #lastMiss: { at: number; error: Error } | null = null;
  #ended = false;
  readonly #retiring = new Set<Promise<void>>();
  readonly #timeoutMs: number;
  readonly #gapMs: number;

  constructor(private readonly o: FailoverPoolOptions) {
    this.#timeoutMs = o.connectTimeoutMs ?? 3000;
    this.#gapMs = o.retryGapMs ?? 500;
  }

  /** The host in use now (`host:port`), or null before the first connection and while none is the primary. */
  get primary(): string | null {
    return this.#current && !this.#suspect ? this.o.hosts.hosts[this.#current.index]! : null;
  }

  async connect(): Promise<PostgresPoolClient> {
    if (this.#ended) throw new Error('Cannot use a pool after calling end');
    const now = this.#current;
    if (now && !this.#suspect) {
      try {
        return this.#wrap(await now.pool.connect(), now);
      } catch (e) {
        if (!isStoreUnavailable(e)) throw e;
        this.#lost(now, e);
      }
    }
    const found = await this.#findPrimary();
    try {
      return this.#wrap(await found.pool.connect(), found);
    } catch (e) {
      if (isStoreUnavailable(e)) this.#lost(found, e);
      throw e;
    }
  }

  /**
   * A connection of its own to the primary, outside the pool (a LISTEN connection). It is checked as the
   * pool's are; the caller ends it.
   */
  async connectClient(applicationName: string): Promise<pg.Client> {
    const found = await this.#findPrimary();
    return this.#open(this.o.hosts.urls[found.index]!, applicationName);
  }

  async end(): Promise<void> {
    this.#ended = true;
    const c = this.#current;
    this.#current = null;
    await Promise.allSettled([...(c ? [c.pool.end()] : []), ...this.#retiring]);
  }

  /** Refuses a connection to a server that is not the primary (only when read-write is asked for). */
  check = async (client: pg.ClientBase): Promise<void> => {
    if (!this.o.hosts.readWrite) return;
    const r = await client.query<{ r: boolean; ro: string }>(
      `select pg_is_in_recovery() as r, current_setting('transaction_read_only') as ro`,
    );
    const row = r.rows[0];
    const { host, port } = client as pg.Client;
    if (!row || row.r || row.ro === 'on')
      throw new StoreUnavailableError(`${host}:${port} is not the primary (${row?.r ? 'in recovery' : 'read-only'})`);
  };

  async #open(url: string, applicationName: string): Promise<pg.Client> {
    const c = new pg.Client({
      connectionString: url,
      application_name: applicationName,
      connectionTimeoutMillis: this.#timeoutMs,
      query_timeout: this.#timeoutMs,
    });
    // An error after the connection is handed over reaches the owner's own listener; before, it is the rejection below.
    const ignore = () => undefined;
    c.on('error', ignore);
    try {
      await c.connect();
      await this.check(c);
      return c;
    } catch (e) {
      await c.end().catch(ignore);
      throw e;
    } finally {
      c.off('error', ignore);
    }
  }

  /** The primary: the pool in use if it is still trusted, else the first host (in order) that is writable. */
  #findPrimary(): Promise<Current> {
    if (this.#current && !this.#suspect) return Promise.resolve(this.#current);
    const miss = this.#lastMiss;
    if (miss && Date.now() - miss.at < this.#gapMs) return Promise.reject(miss.error);
    this.#searching ??= this.#search().finally(() => {
      this.#searching = null;
    });
    return this.#searching;
  }

  async #search(): Promise<Current> {
    const { urls, hosts } = this.o.hosts;
    const why: string[] = [];
    for (let i = 0; i < urls.length; i++) {
      if (this.#ended) break;
      try {
        const probe = await this.#open(urls[i]!, 'cambio-primary-probe');
        probe.on('error', () => undefined);
        await probe.end().catch(() => undefined);
      } catch (e) {
        why.push(`${hosts[i]}: ${(e as Error).message}`);
        continue;
      }
      this.#lastMiss = null;
      const was = this.#current;
      if (was && was.index === i) {
        this.#suspect = false;
        return was;
      }
      if (this.#ended) break;
      const pool = this.o.makePool(urls[i]!, this.check);
      const next = { index: i, pool };
      // A lost idle connection may be the first sign of a lost primary: look again before the next query.
      pool.on('error', (e) => this.#lost(next, e));
      this.#current = next;
      this.#suspect = false;
      if (was) this.#retire(was);
      if (was) this.o.log?.(`postgres: the primary is now ${hosts[i]} (was ${hosts[was.index]})`);
      return next;
    }
    const error = new StoreUnavailableError(why.join('; ') || 'the pool is closed');
    this.#lastMiss = { at: Date.now(), error };
    throw error;
  }

  /** The old primary's pool: its idle connections close now, those in use when released. */
  #retire(old: Current): void {
    const done = old.pool.end().catch(() => undefined);
    this.#retiring.add(done);
    void done.finally(() => this.#retiring.delete(done));
  }

  #lost(owner: Current, e: unknown): void {
    if (owner !== this.#current || this.#suspect) return;
    this.#suspect = true;
    this.o.log?.(
      `postgres: lost the primary ${this.o.hosts.hosts[owner.index]} (${(e as Error)?.message ?? String(e)}); looking for it again`,
    );
  }

  /** Kysely's view of a checked-out connection: a connection-class failure destroys it instead of returning it to the pool. */
  #wrap(client: pg.PoolClient, owner: Current): PostgresPoolClient {
    let broken = false;
    const failed = (e: unknown) => {
      if (!isStoreUnavailable(e)) return;
      broken = true;
      this.#lost(owner, e);
    };
    const onError = (e: unknown) => {
      failed(e);
      throw e;
    };
    // pg emits a lost connection as an event too, and pg-pool listens only while the client is idle: an
    // event nobody hears would end the process.
    client.on('error', failed);
    const query = ((first: unknown, params?: ReadonlyArray<unknown>) => {
      if (typeof first !== 'string') return client.query(first as never) as PostgresCursor<unknown>;
      return (client.query(first, params as unknown[]) as Promise<PostgresQueryResult<unknown>>).catch(onError);
    }) as PostgresPoolClient['query'];
    return {
      query,
      release: () => {
        client.off('error', failed);
        client.release(broken || undefined);
      },
    };
  }
}
