import { CambioError, ConfigurationError, formatMinor, LostResponseError, outcomeUnknown, type MoneyLike } from '@cambio/sdk';
import { CommanderError } from 'commander';
import { UsageError } from './config.ts';

/** Exit codes scripts can branch on. */
export const EXIT = {
  ok: 0,
  /** Wrong command line, unreadable config, no key, a bad base URL, an amount with more decimals than the asset has. */
  usage: 1,
  /** The API refused the request (4xx other than 401/403): read the code. */
  refused: 2,
  /** 401 or 403: the key does not authenticate, lacks a scope, or the organization cannot operate. */
  auth: 3,
  /** Nothing was created or changed: network failure, timeout of a read, 408/429/502/503/504 after the SDK's retries. Safe to run again later. */
  transient: 4,
  /** 500 or another server failure. */
  server: 5,
  /**
   * A creating call (withdrawal, order, declaration, registration, an operator POST) lost its answer
   * and the outcome is unknown: it may have been created. Do NOT simply run it again; read the list
   * (`cambio withdraw list`, `cambio orders`…) first.
   */
  unknown: 6,
  /** `cambio verify`: the books do not match the signed log (the first bad entry is named). */
  books: 8,
  /** A bug in the CLI itself (an unexpected exception): report it with the output of --verbose. */
  internal: 70,
} as const;

/** The list to read before trying again, after a creating call whose outcome is unknown. */
export function readFirstHint(path: string | undefined): string {
  const p = path ?? '';
  if (p.endsWith('/withdrawals/destinations/bank') || p.endsWith('/withdrawals/destinations/crypto')) return 'cambio withdraw destinations';
  if (p.endsWith('/withdrawals')) return 'cambio withdraw list';
  if (p.endsWith('/orders')) return 'cambio orders';
  if (p.endsWith('/deposits/declarations')) return 'cambio deposit open';
  if (p.startsWith('/operator/')) return 'the matching cambio operator list';
  return 'the matching list';
}

/** A POST that creates or decides something (a quote commits to nothing, so it is not one). */
function createsSomething(e: CambioError): boolean {
  return e.method === 'POST' && !(e.path ?? '').endsWith('/quotes');
}

/** True when the error leaves a creating call's outcome unknown: exit 6, read before trying again. */
export function outcomeIsUnknown(e: unknown): e is CambioError {
  return e instanceof LostResponseError || (e instanceof CambioError && createsSomething(e) && outcomeUnknown(e));
}

/** `cambio verify` found the books wrong; `entryId`: the first entry that does not hold, when one does. */
export class BooksMismatch extends Error {
  constructor(
    message: string,
    readonly entryId: string | null,
  ) {
    super(message);
  }
}

export function exitCodeOf(e: unknown): number {
  if (e instanceof BooksMismatch) return EXIT.books;
  if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
  if (e instanceof UsageError || e instanceof ConfigurationError) return EXIT.usage;
  if (outcomeIsUnknown(e)) return EXIT.unknown;
  if (e instanceof CambioError) {
    if (e.status === 401 || e.status === 403) return EXIT.auth;
    if (e.status === 0 || [408, 429, 502, 503, 504].includes(e.status)) return EXIT.transient;
    if (e.status >= 400 && e.status < 500) return EXIT.refused;
    return EXIT.server;
  }
  return EXIT.internal;
}

export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: NodeJS.ProcessEnv;
}

/** JSON for scripts: amounts stay exact digit strings. */
export function jsonText(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x), 2);
}

/** `1.50 USD`, with the decimals the record carries. */
export const money = (m: MoneyLike) => `${formatMinor(m.amountMinor, m.assetDecimals)} ${m.assetSymbol}`;

/** Human cell text of any value. */
export function cell(v: unknown): string {
  if (v === null || v === undefined) return '-';
  if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(cell).join(', ');
  const m = v as Partial<MoneyLike>;
  if (typeof m.assetSymbol === 'string' && typeof m.assetDecimals === 'number' && typeof m.amountMinor === 'bigint')
    return money(m as MoneyLike);
  return jsonText(v).replace(/\s+/g, ' ');
}

/** Columns padded to their widest cell; numbers are not right-aligned on purpose (decimals differ per asset). */
export function table(headers: string[], rows: unknown[][]): string {
  if (rows.length === 0) return '(none)';
  const text = [headers, ...rows.map((r) => r.map(cell))];
  const widths = headers.map((_, i) => Math.max(...text.map((r) => (r[i] ?? '').length)));
  return text.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

/** Two columns: label and value. */
export function kv(pairs: Array<[string, unknown]>): string {
  const w = Math.max(...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${k.padEnd(w)}  ${cell(v)}`).join('\n');
}

/** What goes to stderr for a failure: one line for people, or `{"error": {…}}` with --json. */
export function errorText(e: unknown, json: boolean, verbose = false): string {
  if (e instanceof CambioError) {
    const unknown = outcomeIsUnknown(e);
    const hint = unknown ? `the outcome is unknown: it may have been created. Read \`${readFirstHint(e.path)}\` before trying again` : null;
    if (json)
      return jsonText({
        error: { status: e.status, code: e.code, message: e.message, traceId: e.traceId, ...(hint ? { outcome: 'unknown', hint } : {}) },
      });
    return `error: ${e.code}: ${e.message}${e.traceId ? ` (traceId ${e.traceId})` : ''}${hint ? `\n${hint}` : ''}`;
  }
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof BooksMismatch) {
    return json
      ? jsonText({ error: { status: null, code: 'cli.books_mismatch', message, entryId: e.entryId, traceId: null } })
      : `FAILED: ${message}${e.entryId ? `\nfirst bad entry: ${e.entryId}` : ''}`;
  }
  if (e instanceof UsageError || e instanceof CommanderError) {
    return json ? jsonText({ error: { status: null, code: 'cli.usage', message, traceId: null } }) : `error: ${message}`;
  }
  // Anything else is a bug of the CLI, not something the user typed.
  if (json) return jsonText({ error: { status: null, code: 'cli.internal', message, traceId: null } });
  const stack = verbose && e instanceof Error && e.stack ? `\n${e.stack}` : '';
  return `internal error: ${message} (a bug in cambio, not in your command: please report it${verbose ? '' : '; --verbose shows the stack'})${stack}`;
}
