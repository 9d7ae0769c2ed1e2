import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * A pg client that sends every parameterized query as a named prepared statement, so PostgreSQL
 * parses and plans each distinct SQL text once per connection instead of on every call (Kysely
 * sends `query(text, values)`). Names are a hash of the text; past `maxNames` distinct texts, new
 * ones go out unnamed as before, so an unbounded variety of texts cannot grow the cache without end.
 */
export function preparingClient(maxNames = 2000): typeof pg.Client {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let n = names.get(text);
    if (n === undefined && names.size < maxNames) {
      n = `c_${createHash('sha1').update(text).digest('base64url').slice(0, 22)}`;
      names.set(text, n);
    }
    return n;
  };
  class PreparingClient extends pg.Client {
    // pg's overloads cannot be restated here; the call is forwarded unchanged unless it is Kysely's form.
    override query(...args: unknown[]): never {
      const [text, values, cb] = args;
      const query = super.query as (...a: unknown[]) => never;
      if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && cb === undefined) {
        const name = nameOf(text);
        if (name !== undefined) return query.call(this, { name, text, values });
      }
      return query.apply(this, args);
    }
  }
  return PreparingClient as unknown as typeof pg.Client;
}
