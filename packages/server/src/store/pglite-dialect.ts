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
 * a transaction owns it from BEGIN to COMMIT, and nothing else interleaves.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly db: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.db);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  #queue: Promise<void> = Promise.resolve();
  #release: (() => void) | null = null;
  readonly #conn: PGliteConnection;
  constructor(private readonly db: PGlite) {
    this.#conn = new PGliteConnection(db);
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const prev = this.#queue;
    let release!: () => void;
    this.#queue = new Promise<void>((r) => {
      release = r;
    });
    await prev;
    this.#release = release;
    return this.#conn;
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
    const r = this.#release;
    this.#release = null;
    r?.();
  }

  async destroy() {
    await this.db.close();
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
