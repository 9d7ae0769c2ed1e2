/**
 * Looks for secrets in every line the Cambio processes print, as the lines arrive. The services run at
 * `info` (the default of --log-level), so every request writes its lines and each is read here.
 *
 * Secrets are learned during the run (a key when it is issued, an account number just before it is
 * sent): each new one is also looked for in the last lines already read, so a line written a moment
 * before the workload learned the secret is not missed. A line is matched against every secret through
 * an index of their first characters, so the cost per line does not grow with the number of secrets.
 */
export type SecretKind =
  | 'API key'
  | 'API key secret'
  | 'stored key hash'
  | 'operator token'
  | 'server secret'
  | 'account number'
  | 'account number digits'
  | 'holder document'
  | 'password'
  | 'session id'
  | 'invitation token'
  | 'TOTP secret'
  | 'recovery code'
  | 'portal API key'
  | 'staff token'
  | 'venue API key'
  | 'venue secret';

const ANCHOR = 6;
const RECENT = 5000;

export class LogScan {
  /** Every line read, and those that are a request's own line (`incoming request`, one per request received). */
  lines = 0;
  requestLines = 0;
  /** How many times a secret was seen in a line, and the first few of them, described. */
  seen = 0;
  readonly found: string[] = [];
  readonly #kinds = new Map<string, SecretKind>();
  readonly #byAnchor = new Map<string, string[]>();
  readonly #short: string[] = [];
  readonly #recent: string[] = new Array<string>(RECENT).fill('');
  #next = 0;
  readonly #reported = new Set<string>();

  add(kind: SecretKind, value: string): void {
    if (!value || this.#kinds.has(value)) return;
    this.#kinds.set(value, kind);
    if (value.length < ANCHOR) this.#short.push(value);
    else {
      const a = value.slice(0, ANCHOR);
      this.#byAnchor.set(a, [...(this.#byAnchor.get(a) ?? []), value]);
    }
    for (const line of this.#recent) if (line.includes(value)) this.#report(value, line);
  }

  /** Every secret learned so far, with its kind (the store scan looks for them too). */
  secrets(): Array<[string, SecretKind]> {
    return [...this.#kinds];
  }

  /** One line of a process's output (`[instance] …`). */
  read(line: string): void {
    this.lines++;
    if (line.includes('"msg":"incoming request"')) this.requestLines++;
    this.#recent[this.#next] = line;
    this.#next = (this.#next + 1) % RECENT;
    for (const s of this.#short) if (line.includes(s)) this.#report(s, line);
    for (let i = 0; i + ANCHOR <= line.length; i++) {
      const candidates = this.#byAnchor.get(line.slice(i, i + ANCHOR));
      if (candidates) for (const s of candidates) if (line.startsWith(s, i)) this.#report(s, line);
    }
  }

  /** What was looked for, per kind, and how much was read. */
  summary(): string {
    const perKind = new Map<SecretKind, number>();
    for (const k of this.#kinds.values()) perKind.set(k, (perKind.get(k) ?? 0) + 1);
    const kinds = [...perKind].map(([k, n]) => `${k} ×${n}`).join(', ');
    return `log scan: ${this.lines} lines read (${this.requestLines} request lines); looked for ${this.#kinds.size} secrets of ${perKind.size} kinds (${kinds}); ${this.seen} found`;
  }

  #report(secret: string, line: string): void {
    const id = `${secret}\n${line}`;
    if (this.#reported.has(id)) return;
    this.#reported.add(id);
    this.seen++;
    if (this.found.length >= 20) return;
    // The secret itself is never printed again: its kind and the line with it masked.
    this.found.push(
      `the ${this.#kinds.get(secret)} ${secret.slice(0, 4)}… appears in a log line: ${line.replaceAll(secret, '[the secret]').slice(0, 200)}`,
    );
  }
}
