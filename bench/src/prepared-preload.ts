import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * What-if experiment (`npm run bench -- --experiment-prepared`), loaded into Cambio's process with
 * --import: every parameterized query goes out as a named prepared statement, so PostgreSQL parses
 * and plans each distinct SQL text once per connection instead of on every call. Kysely sends
 * `client.query(sql, params)`, which is what is rewritten here. It measures what db.ts would gain
 * by doing this itself; it is never part of the figures the targets are judged on.
 */
const names = new Map<string, string>();
const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;

function nameOf(text: string): string {
  let n = names.get(text);
  if (!n) {
    n = `k${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
    if (names.size < 2000) names.set(text, n);
  }
  return n;
}

(pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: pg.Client, ...args: unknown[]) {
  const [text, values, cb] = args;
  if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && cb === undefined) {
    return original.call(this, { name: nameOf(text), text, values });
  }
  return original.apply(this, args);
};
