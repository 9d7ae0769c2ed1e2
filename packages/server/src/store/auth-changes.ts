import type pg from 'pg';

/** The channel migration 014 notifies on every committed change to what authentication reads. */
export const AUTH_CHANNEL = 'cambio_auth';

export interface AuthChangeListener {
  /** A change to what authentication reads was committed (here or by another instance); `what`: the table. */
  changed(what: string): void;
  /** Whether every change is certain to be heard from now on; while false, nothing may be cached. */
  hearing(live: boolean): void;
}

/**
 * Where the store's notifications arrive. Every connection of the store listens and passes on its own
 * notifications (PostgreSQL hands a session its own notification before its COMMIT returns, so a change
 * made here reaches the cache before the request that made it is answered). On PostgreSQL one more
 * connection listens all the time and passes on the others' (other instances', psql's): while it is
 * down, such a change could be missed, so `live` is false.
 */
export class AuthChanges {
  readonly #listeners = new Set<AuthChangeListener>();
  #live: boolean;
  constructor(live: boolean) {
    this.#live = live;
  }

  get live(): boolean {
    return this.#live;
  }

  subscribe(l: AuthChangeListener): () => void {
    this.#listeners.add(l);
    return () => {
      this.#listeners.delete(l);
    };
  }

  changed = (what = ''): void => {
    for (const l of this.#listeners) l.changed(what);
  };

  setLive(live: boolean): void {
    if (live === this.#live) return;
    this.#live = live;
    for (const l of this.#listeners) l.hearing(live);
  }
}

/**
 * PostgreSQL: a dedicated connection that LISTENs, reconnecting after `retryMs` when it drops. `live`
 * turns true only once its LISTEN has returned (a change committed after that is heard) and false the
 * moment the connection reports an error or its end. A notification sent by one of this instance's own
 * listening connections (`ours`) was already passed on by that connection before its COMMIT returned.
 */
export class PgAuthListener {
  #client: pg.Client | null = null;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  /** `open`: a new, connected client on the primary (store/failover-pool.ts), or a rejection while there is none. */
  /** `others`: more channels this connection listens on, each told of the notifications another session sent. */
  constructor(
    private readonly open: () => Promise<pg.Client>,
    private readonly changes: AuthChanges,
    private readonly ours: (pid: number) => boolean,
    private readonly retryMs = 1000,
    private readonly others: ReadonlyMap<string, () => void> = new Map(),
  ) {}

  /** The first attempt; a failure leaves `live` false and retries. */
  async start(): Promise<void> {
    await this.#connect();
  }

  async #connect(): Promise<void> {
    this.#timer = null;
    if (this.#closed) return;
    let client: pg.Client;
    try {
      client = await this.open();
    } catch {
      if (!this.#closed)
        this.#timer = setTimeout(() => {
          void this.#connect();
        }, this.retryMs).unref();
      return;
    }
    if (this.#closed) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      this.changes.setLive(false);
      if (this.#client === client) this.#client = null;
      client.end().catch(() => {});
      if (!this.#closed)
        this.#timer = setTimeout(() => {
          void this.#connect();
        }, this.retryMs).unref();
    };
    client.on('error', onLost);
    client.on('end', onLost);
    client.on('notification', (n) => {
      if (this.ours(n.processId)) return;
      if (n.channel === AUTH_CHANNEL) this.changes.changed(n.payload);
      else this.others.get(n.channel)?.();
    });
    try {
      await client.query(`listen ${AUTH_CHANNEL}`);
      for (const channel of this.others.keys()) await client.query(`listen ${channel}`);
      if (!lost && !this.#closed) this.changes.setLive(true);
    } catch {
      onLost();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.changes.setLive(false);
    const c = this.#client;
    this.#client = null;
    await c?.end().catch(() => {});
  }
}
