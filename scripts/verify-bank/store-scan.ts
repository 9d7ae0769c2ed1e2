import type pg from 'pg';
import type { SecretKind } from './log-scan.ts';

/**
 * Looks for every secret the run learned in the whole database, as text: each row of each table. A
 * person's secrets are kept only hashed (passwords, session ids, invitation tokens, keys, staff tokens,
 * recovery codes) or sealed (TOTP secrets, bank details, answers kept for an Idempotency-Key), so none may
 * appear. What the store keeps on purpose (a key's hash) and short or digits-only values (that any
 * number could contain) are not looked for.
 */
const KEPT: ReadonlySet<SecretKind> = new Set(['stored key hash', 'account number digits']);

export interface StoreScanResult {
  tables: number;
  rows: number;
  secrets: number;
  found: string[];
}

export async function scanStore(db: pg.Client, secrets: Array<[string, SecretKind]>): Promise<StoreScanResult> {
  const wanted = secrets.filter(([v, k]) => !KEPT.has(k) && v.length >= 8 && !/^\d+$/.test(v));
  const tables = (
    await db.query<{ t: string }>(
      `select table_name as t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    )
  ).rows.map((r) => r.t);
  const found: string[] = [];
  let rows = 0;
  for (const t of tables) {
    const r = await db.query<{ x: string }>(`select x::text as x from "${t.replaceAll('"', '""')}" x`);
    rows += r.rows.length;
    for (const { x } of r.rows) {
      for (const [value, kind] of wanted) {
        if (!x.includes(value)) continue;
        // The secret itself is never printed: its kind, the table, and the row with it masked.
        if (found.length < 20)
          found.push(`the ${kind} ${value.slice(0, 4)}… is stored readable in ${t}: ${x.replaceAll(value, '[the secret]').slice(0, 200)}`);
      }
    }
  }
  return { tables: tables.length, rows, secrets: wanted.length, found };
}
