import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { PglitePrepared } from './pglite-prepared.ts';

/**
 * Kysely over PGlite. PGlite is one connection, so the driver hands it out to one user at a time:
 * a transaction owns it from BEGIN to COMMIT, and nothing else interleaves. `urgentTwin()` is a second
 * dialect over the same connection whose users take it before everyone waiting through this one (never
 * in the middle of someone's transaction): for a background worker whose short statements would
 * otherwise queue behind every request waiting under load.
 */
export class PGliteDialect implements Dialect {
  readonly #line: OneLine;
  constructor(
    private readonly db: PGlite,
    line?: OneLine,
    private readonly urgent = false,
  ) {
    this.#line = line ?? new OneLine(new PGliteConnection(db));
  }
  /** A dialect over the same connection whose users go first; destroying it leaves the connection open. */
  urgentTwin(): PGliteDialect {
    return new PGliteDialect(this.db, this.#line, true);
  }
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.db, this.#line, this.urgent);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

/** The one connection and whose turn it is: the urgent waiters first, then the others, each in arrival order. */
class OneLine {
  #busy = false;
  /** When the event loop last had a turn between two holders (or the connection was last taken free). */
  #loopTurnAt = 0;
  readonly #urgent: Array<() => void> = [];
  readonly #others: Array<() => void> = [];
  constructor(readonly conn: PGliteConnection) {}

  async take(urgent: boolean): Promise<void> {
    if (!this.#busy) {
      this.#busy = true;
      this.#loopTurnAt = performance.now();
      return;
    }
    await new Promise<void>((r) => (urgent ? this.#urgent : this.#others).push(r));
  }

  /**
   * Hands the connection to the next waiter (it stays busy), or frees it. PGlite answers through promises
   * only, so transactions waiting back to back run from microtask to microtask, and no socket and no timer
   * (the requests' own I/O, the delivery worker's attempts and claims) gets a turn until the whole queue
   * has run. So once LOOP_TURN_MS have passed without one, the next waiter goes on in a macrotask; a
   * macrotask at every handover would cost the requests that take several transactions (an
   * Idempotency-Key claimed before the work, then the work) a turn of the loop each.
   */
  give(): void {
    const next = this.#urgent.shift() ?? this.#others.shift();
    if (!next) {
      this.#busy = false;
      return;
    }
    if (performance.now() - this.#loopTurnAt < LOOP_TURN_MS) return next();
    setImmediate(() => {
      this.#loopTurnAt = performance.now();
      next();
    });
  }
}

/** The longest the queue of transactions runs before the event loop gets a turn. */
const LOOP_TURN_MS = 5;

class PGliteDriver implements Driver {
  constructor(
    private readonly db: PGlite,
    private readonly line: OneLine,
    private readonly urgent: boolean,
  ) {}

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.line.take(this.urgent);
    return this.line.conn;
  }

  async beginTransaction(c: DatabaseConnection) {
    await c.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(c: DatabaseConnection) {
    await c.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(c: DatabaseConnection) {
    await c.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection() {
    this.line.give();
  }

  async destroy() {
    // The twin shares the connection: only the requests' dialect closes it.
    if (!this.urgent) await this.db.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  readonly #prepared: PglitePrepared;
  constructor(private readonly db: PGlite) {
    this.#prepared = new PglitePrepared(db);
  }
  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    // The extended protocol takes one statement; parameterless scripts (migrations) go through exec.
    if (q.parameters.length === 0 && q.sql.includes(';')) {
      const all = await this.db.exec(q.sql);
      const last = all[all.length - 1];
      return { rows: (last?.rows ?? []) as R[] };
    }
    // A parameterized statement is prepared once (pglite-prepared.ts); BEGIN, COMMIT and the like go as they are.
    const r = q.parameters.length > 0 ? await this.#prepared.query<R>(q.sql, q.parameters) : await this.db.query<R>(q.sql);
    return {
      rows: r.rows,
      ...(r.affectedRows !== undefined ? { numAffectedRows: BigInt(r.affectedRows) } : {}),
    };
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on PGlite');
  }
}
