import type * as PgliteModule from '@electric-sql/pglite';
import type { PGlite, Results } from '@electric-sql/pglite';

type Pglite = typeof PgliteModule;
/** Names are unique in the process, so two users of one PGlite never take each other's. */
let named = 0;
interface Prepared {
  name: string;
  paramTypes: number[];
}

/**
 * Parameterized statements on PGlite as named prepared statements, as `prepared-client.ts` does on
 * PostgreSQL: each distinct SQL text is parsed and described once, then every call is one trip into
 * PGlite (bind, describe, execute, sync) instead of PGlite's six (parse, describe, bind, describe,
 * execute, sync), and PostgreSQL can keep the statement's plan instead of planning it on every call
 * (planning a list's page cost more than running it). Values are serialized and rows parsed
 * by PGlite's own serializers and parsers, as `PGlite.query` does, so the rows are the same.
 * Past `maxNames` distinct texts, new ones go through `PGlite.query` as before.
 *
 * The caller gives PGlite to one user at a time (`pglite-dialect.ts`); each trip ends with its sync,
 * and takes PGlite's own query lock, so nothing can land between a bind and its execute. PGlite's file systems in use here (a
 * directory, or memory) have nothing to sync after a statement, so none is asked for.
 */
export class PglitePrepared {
  readonly #names = new Map<string, Prepared>();
  #lib: Promise<Pglite> | null = null;
  constructor(
    private readonly db: PGlite,
    private readonly maxNames = 2000,
  ) {}

  async query<R>(text: string, params: readonly unknown[]): Promise<Results<R>> {
    let st = this.#names.get(text);
    if (!st && this.#names.size >= this.maxNames) return this.db.query<R>(text, params as unknown[]);
    const {
      parse,
      protocol: { serialize },
    } = await (this.#lib ??= import('@electric-sql/pglite'));
    try {
      if (!st) {
        const name = `cambio_${named++}`;
        const described = await this.#trip([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]);
        st = { name, paramTypes: parse.parseDescribeStatementResults(described) };
        this.#names.set(text, st);
      }
      const types = st.paramTypes;
      const values = params.map((v, i) => (v === null || v === undefined ? null : (this.db.serializers[types[i]!] ?? String)(v)));
      const messages = await this.#trip([
        serialize.bind({ statement: st.name, values: values as string[] }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]);
      return parse.parseResults(messages, this.db.parsers)[0] as Results<R>;
    } catch (e) {
      // As PGlite.query reports a failed statement: the database error, with what was sent.
      if (e && typeof e === 'object' && 'code' in e) Object.assign(e, { query: text, params });
      throw e;
    }
  }

  #trip(parts: Uint8Array[]) {
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    return this.db._runExclusiveQuery(() => this.db.execProtocolStream(all, { syncToFs: false }));
  }
}
