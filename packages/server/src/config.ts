import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { SECRET_STRENGTH, SEED_STRENGTH, TOKEN_STRENGTH, weakness } from './secret-strength.ts';

/** pino's levels. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const HOSTNAME = /^(?=.{1,253}$)[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** docs/production.md: every setting comes from the environment (a `.env` file may add to it). */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  mode: 'sandbox' | 'production';
  seedDemo: boolean;
  operatorToken: string | undefined;
  keyTag: string;
  quoteTtlMs: number;
  declarationTtlMs: number;
  destinationCooldownMs: number;
  rateLimitPerMin: number;
  redisUrl: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  /** Keyed-hash and encryption secret. Unset: generated once and kept in the store. */
  secret: string | undefined;
  dbPoolSize: number;
  /**
   * How long an authenticated key may be kept between requests at most (CAMBIO_AUTH_CACHE_TTL_MS, 10 s);
   * every change to it is notified and drops it sooner. 0: no cache, every request reads its key.
   */
  authCacheTtlMs: number;
  /**
   * The service's own origin (cookie writes must come from it; invitation links start with it):
   * CAMBIO_PUBLIC_URL, else http://<HOST>:<PORT> until the server listens, then the address actually
   * bound (with PORT=0, the port picked): see app.ts.
   */
  publicUrl: string;
  /** CAMBIO_PUBLIC_URL was set: the origin is exactly that one, and a request's Host never stands in for it. */
  publicUrlSet: boolean;
  /** A session ends after this long without a request (CAMBIO_SESSION_IDLE_MS, 30 min). */
  sessionIdleMs: number;
  /** A session ends this long after sign-in whatever happens (CAMBIO_SESSION_MAX_MS, 12 h). */
  sessionMaxMs: number;
  /**
   * How long a webhook delivery's claim holds it (CAMBIO_WEBHOOK_LEASE_MS, 60 s): an attempt cut off by a
   * crash is made again once it runs out. Under 20 s an attempt's timeout is half of it instead of 10 s.
   */
  webhookLeaseMs: number;
  /**
   * How long an approved order may wait for its outcome before the recovery task takes it up again
   * (CAMBIO_RECOVERY_GRACE_MS, 30 s), and how long one instance holds a venue order while it talks to the
   * venue: an instance that died holding it is replaced once it runs out. The task looks every
   * half of it, at most every 15 s.
   */
  recoveryGraceMs: number;
  /** CAMBIO_EXPLORER_<NETWORK>: a block explorer's link per network (upper case), `{txid}` where the txid goes. */
  explorers: Record<string, string>;
  /** The journal log's name: its checkpoints' origin is `cambio/<logName>` (CAMBIO_LOG_NAME; default the host of CAMBIO_PUBLIC_URL, else localhost). */
  logName: string;
  /** The log's Ed25519 seed (CAMBIO_LOG_SIGNING_KEY, base64 of 32 bytes); unset: generated once and kept sealed in the store. */
  logSigningKey: Buffer | undefined;
  /**
   * Witnesses of the journal log (CAMBIO_WITNESSES=<verifier key>=<base url>,…): every new checkpoint is
   * sent to each (C2SP tlog-witness) and their cosignatures are served with it.
   */
  witnesses: Array<{ verifierKey: string; name: string; url: string }>;
  /** The market behind production (docs/market.md): the desk, or an exchange through CCXT. Sandbox: always the simulated venue. */
  venue: VenueConfig;
  /**
   * Where mail goes (CAMBIO_SMTP_URL, `smtp://user:pass@host:587` or `smtps://…:465`); unset: no mail is
   * sent and the apps show invitation links as they always did. Hidden: it may carry the SMTP password.
   */
  smtpUrl: Hidden | undefined;
  /** The From of every mail (CAMBIO_MAIL_FROM, default `Cambio <no-reply@<host of CAMBIO_PUBLIC_URL>>`). */
  mailFrom: string;
  /**
   * Production: where a generated bootstrap operator token is written, readable by the service's user only
   * (CAMBIO_OPERATOR_TOKEN_FILE, default `<DATA_DIR>/operator-token`, `./data/operator-token` with an
   * in-memory store). The log says where, never the token. Sandbox prints it, as the README shows.
   */
  operatorTokenFile: string;
}

/** A new withdrawal destination's cooldown in the sandbox unless CAMBIO_DESTINATION_COOLDOWN_MS says otherwise (production: 24 h). */
export const SANDBOX_COOLDOWN_MS = 60_000;

/** The start's line on the sandbox's cooldown: how long a new destination waits, and how to change it. */
export function sandboxCooldownLine(ms: number): string {
  const wait = ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`;
  const cools = ms === 0 ? 'has no cooldown' : `cools down ${wait}`;
  return `sandbox: a new withdrawal destination ${cools}, then is usable once the operator registers it in the market (CAMBIO_DESTINATION_COOLDOWN_MS=${ms}; production default 24 h)`;
}

/** The exchanges whose answers Cambio reads exactly (venues/ccxt/adapters.ts): their raw JSON differs per exchange. */
export const CCXT_EXCHANGES = ['binance', 'kraken', 'okx', 'coinbase'] as const;
/** Those whose API keys sign with a passphrase besides the secret (CAMBIO_VENUE_PASSWORD). */
export const CCXT_NEEDS_PASSWORD: ReadonlyArray<string> = ['okx'];

/** One exchange account the platform trades at (docs/market.md): `name` is what orders and quotes record as their venue. */
export interface CcxtAccountConfig {
  name: string;
  exchange: (typeof CCXT_EXCHANGES)[number];
  url: string | undefined;
  apiKey: Hidden;
  secret: Hidden;
  /** _PASSWORD: the API key's passphrase (OKX); undefined for an exchange that needs none. */
  password: Hidden | undefined;
}

/**
 * The desk, or one or several exchange accounts through CCXT. With `ccxt` the first account's fields are
 * at the top (CAMBIO_VENUE alone: the only one, named after its exchange); `venues` lists every account
 * connected, in the order CAMBIO_VENUES lists them (a tie between their prices goes to the first).
 */
export type VenueConfig = { kind: 'desk' } | ({ kind: 'ccxt'; venues: CcxtAccountConfig[] } & CcxtAccountConfig);

/**
 * A credential held in memory: it prints, logs and serializes as `[hidden]`, so neither a log line nor
 * an answer that happens to carry the configuration can show it. Only `reveal()` gives it.
 */
export class Hidden {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toJSON(): string {
    return '[hidden]';
  }
  toString(): string {
    return '[hidden]';
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return '[hidden]';
  }
}

export class ConfigError extends Error {}

/**
 * What a start with this configuration should shout about though it may go on: production with its store
 * in memory keeps nothing once the process stops (docs/production.md).
 */
export function startWarnings(c: Pick<Config, 'mode' | 'databaseUrl' | 'dataDir'>): string[] {
  const w: string[] = [];
  if (c.mode === 'production' && !c.databaseUrl && c.dataDir === 'memory://')
    w.push(
      'WARNING: CAMBIO_MODE=production with DATA_DIR=memory:// keeps every record in memory only: balances, orders and the audit trail are LOST when the process stops. Set DATABASE_URL (PostgreSQL) or DATA_DIR to a directory.',
    );
  return w;
}

/** A database that cannot be opened, in one line a person can act on (the URL without its password). */
export class DatabaseOpenError extends Error {}

export function databaseOpenError(err: unknown, where: { databaseUrl?: string | undefined; dataDir: string }): DatabaseOpenError {
  const e = err as { message?: string; code?: string; errors?: Array<{ message?: string }> };
  // The first line of the innermost reason: "migration failed: Error: no primary database answers: host: why" → why.
  let why = (e?.message || e?.errors?.map((x) => x.message).join('; ') || String(err)).split('\n')[0]!;
  why = why.replace(/^migration\s+\S*\s*failed:\s*(Error:\s*)?/, '').replace(/^no primary database answers:\s*[^\s]+:\s*/, '');
  const missing = e?.code === '3D000' || /database "[^"]+" does not exist/.test(why);
  const unreachable = e?.code === 'ECONNREFUSED' || e?.code === 'ENOTFOUND' || /ECONNREFUSED|ENOTFOUND|timeout|no primary/i.test(why);
  let place = `DATA_DIR ${where.dataDir}`;
  if (where.databaseUrl) {
    try {
      const u = new URL(where.databaseUrl);
      u.password = '';
      place = `DATABASE_URL ${u.toString().replace(/:@/, '@')}`;
    } catch {
      place = 'DATABASE_URL';
    }
  }
  const hint = missing
    ? ' (create the database first, e.g. `createdb <name>`, or point DATABASE_URL at one that exists)'
    : unreachable
      ? ' (is PostgreSQL running and reachable at that host and port?)'
      : '';
  return new DatabaseOpenError(`cannot open the database at ${place}: ${why}${hint}`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const str = (k: string) => (env[k] === undefined || env[k] === '' ? undefined : env[k]);
  const int = (k: string, def: number, min: number, max: number) => {
    const v = str(k);
    if (v === undefined) return def;
    if (!/^[0-9]+$/.test(v) || Number(v) < min || Number(v) > max) {
      problems.push(`${k} must be a whole number from ${min} to ${max} (got "${v}")`);
      return def;
    }
    return Number(v);
  };
  const bool = (k: string, def: boolean) => {
    const v = str(k)?.toLowerCase();
    if (v === undefined) return def;
    if (['true', '1', 'yes'].includes(v)) return true;
    if (['false', '0', 'no'].includes(v)) return false;
    problems.push(`${k} must be true or false (got "${v}")`);
    return def;
  };

  const mode = (str('CAMBIO_MODE') ?? 'sandbox') as Config['mode'];
  if (mode !== 'sandbox' && mode !== 'production') problems.push(`CAMBIO_MODE must be sandbox or production (got "${String(mode)}")`);
  const databaseUrl = str('DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  const keyTag = str('CAMBIO_KEY_TAG') ?? 'cmb';
  if (!/^[a-z][a-z0-9]{1,15}$/.test(keyTag))
    problems.push(`CAMBIO_KEY_TAG must be 2-16 lower-case letters or digits, starting with a letter (got "${keyTag}")`);
  const operatorToken = str('OPERATOR_TOKEN');
  if (operatorToken !== undefined && operatorToken.length < 16) problems.push('OPERATOR_TOKEN must be at least 16 characters');
  // Production refuses what is plainly guessable (docs/security.md, "Weak settings"); the sandbox keeps its habits.
  const weak = (name: string, value: string | Uint8Array | undefined, strength: typeof SECRET_STRENGTH, hint: string) => {
    const why = mode === 'production' && value !== undefined ? weakness(value, strength) : null;
    if (why !== null) problems.push(`${name} must ${why}; ${hint} (its value is not repeated here)`);
  };
  if (operatorToken === undefined || operatorToken.length >= 16)
    weak(
      'OPERATOR_TOKEN',
      operatorToken,
      TOKEN_STRENGTH,
      'generate one, e.g. `openssl rand -base64 32`, or leave it unset and one is generated',
    );
  const redisUrl = str('REDIS_URL');
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must start with redis:// or rediss://');
  const secret = str('CAMBIO_SECRET');
  if (secret !== undefined && secret.length < 32) problems.push('CAMBIO_SECRET must be at least 32 characters');
  else weak('CAMBIO_SECRET', secret, SECRET_STRENGTH, 'generate one, e.g. `openssl rand -base64 48`');
  // Without it the secret is generated and kept in the store, next to the API-key hashes and the sealed
  // destinations it protects: a copy of the database would be enough to open them.
  if (mode === 'production' && secret === undefined) {
    problems.push(
      'CAMBIO_MODE=production needs CAMBIO_SECRET (at least 32 characters, e.g. `openssl rand -base64 48`): a generated secret would live in the same database as what it protects',
    );
  }
  const host = str('HOST') ?? '127.0.0.1';
  // A name whose last label is a number is read as an IPv4 address (WHATWG URL): 999.1.1.1 is neither.
  const hostOk = isIP(host) !== 0 || (HOSTNAME.test(host) && !/(^|\.)(\d+|0x[0-9a-f]*)\.?$/i.test(host));
  if (!hostOk) problems.push(`HOST must be an IP address or a host name, without scheme or port (got "${host}")`);
  const logLevel = (str('LOG_LEVEL') ?? 'info').toLowerCase() as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  const seedDemo = bool('CAMBIO_SEED_DEMO', mode === 'sandbox');
  // The demo is funded by adjustments and prints a full-scope key: it has no place in real books.
  if (mode === 'production' && seedDemo)
    problems.push(
      'CAMBIO_SEED_DEMO=true is for the sandbox only: the demo organization is funded by adjustments and its full-scope key is printed; unset it in production',
    );

  const port = int('PORT', 8080, 0, 65535);
  let publicUrl = str('CAMBIO_PUBLIC_URL') ?? `http://${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
  try {
    const u = new URL(publicUrl);
    if (!['http:', 'https:'].includes(u.protocol) || u.pathname !== '/' || u.search || u.hash || u.username)
      throw new Error('not an origin');
    publicUrl = u.origin;
  } catch {
    // Derived from a bad HOST, the problem is HOST's (reported above), not a setting the person never made.
    if (str('CAMBIO_PUBLIC_URL') !== undefined || hostOk)
      problems.push(
        `CAMBIO_PUBLIC_URL must be an origin such as https://cambio.example.com (scheme, host, optional port; no path) (got "${publicUrl}")`,
      );
  }
  const explicitUrl = str('CAMBIO_PUBLIC_URL');
  const logName = str('CAMBIO_LOG_NAME') ?? (explicitUrl && URL.canParse(explicitUrl) ? new URL(explicitUrl).host : 'localhost');
  // The origin is a note key name: no space, no '+' (C2SP signed-note).
  if (!/^[\x21-\x7e]+$/.test(logName) || logName.includes('+'))
    problems.push(`CAMBIO_LOG_NAME must be printable ASCII without spaces or "+" (got "${logName}")`);
  const seedText = str('CAMBIO_LOG_SIGNING_KEY');
  const logSigningKey = seedText === undefined ? undefined : Buffer.from(seedText, 'base64');
  if (seedText !== undefined && (logSigningKey!.length !== 32 || logSigningKey!.toString('base64') !== seedText)) {
    problems.push('CAMBIO_LOG_SIGNING_KEY must be the base64 of a 32-byte Ed25519 seed (e.g. `openssl rand -base64 32`)');
  } else {
    // An all-zero (or otherwise guessable) seed lets anyone sign the log's checkpoints.
    weak(
      'CAMBIO_LOG_SIGNING_KEY',
      logSigningKey,
      SEED_STRENGTH,
      'generate one, e.g. `openssl rand -base64 32`, or leave it unset and one is generated',
    );
  }
  const witnesses: Config['witnesses'] = [];
  for (const item of (str('CAMBIO_WITNESSES') ?? '').split(',').filter((x) => x.trim() !== '')) {
    const at = item.indexOf('=');
    const verifierKey = item.slice(0, at).trim();
    const url = item
      .slice(at + 1)
      .trim()
      .replace(/\/+$/, '');
    const name = verifierKey.split('+')[0] ?? '';
    if (at < 0 || !/^[^+\s]+\+[0-9a-f]{8}\+[A-Za-z0-9+/]{44}$/.test(verifierKey) || !URL.canParse(url) || !/^https?:/.test(url))
      problems.push(`CAMBIO_WITNESSES must be <verifier key>=<base url>, comma separated (got "${item.trim()}")`);
    else witnesses.push({ verifierKey, name, url });
  }
  const venue = venueConfig(mode, str, problems);
  const dataDir = str('DATA_DIR') ?? './data';
  const config: Config = {
    port,
    host,
    databaseUrl,
    dataDir,
    mode,
    seedDemo,
    operatorToken,
    keyTag,
    quoteTtlMs: int('CAMBIO_QUOTE_TTL_MS', 15_000, 1, 86_400_000),
    declarationTtlMs: int('CAMBIO_DECLARATION_TTL_MS', 3_600_000, 1, 30 * 86_400_000),
    // The sandbox is for trying: a new destination cools down a minute there, so a walkthrough runs as written.
    destinationCooldownMs: int(
      'CAMBIO_DESTINATION_COOLDOWN_MS',
      mode === 'sandbox' ? SANDBOX_COOLDOWN_MS : 86_400_000,
      0,
      365 * 86_400_000,
    ),
    rateLimitPerMin: int('CAMBIO_RATE_LIMIT_PER_MIN', 600, 0, 10_000_000),
    redisUrl,
    logLevel,
    secret,
    dbPoolSize: int('DB_POOL_SIZE', 16, 1, 500),
    authCacheTtlMs: int('CAMBIO_AUTH_CACHE_TTL_MS', 10_000, 0, 3_600_000),
    publicUrl,
    publicUrlSet: str('CAMBIO_PUBLIC_URL') !== undefined,
    sessionIdleMs: int('CAMBIO_SESSION_IDLE_MS', 30 * 60_000, 1000, 30 * 86_400_000),
    sessionMaxMs: int('CAMBIO_SESSION_MAX_MS', 12 * 3_600_000, 1000, 90 * 86_400_000),
    webhookLeaseMs: int('CAMBIO_WEBHOOK_LEASE_MS', 60_000, 1000, 3_600_000),
    recoveryGraceMs: int('CAMBIO_RECOVERY_GRACE_MS', 30_000, 1000, 3_600_000),
    logName,
    logSigningKey,
    witnesses,
    venue,
    explorers: explorerConfig(env, problems),
    ...mailConfig(str, publicUrl, problems),
    operatorTokenFile: str('CAMBIO_OPERATOR_TOKEN_FILE') ?? join(dataDir === 'memory://' ? './data' : dataDir, 'operator-token'),
  };
  if (problems.length) throw new ConfigError(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return config;
}

/** CAMBIO_EXPLORER_<NETWORK>: an http(s) link with `{txid}`, per network (docs/operator-guide.md). */
function explorerConfig(env: NodeJS.ProcessEnv, problems: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    const m = /^CAMBIO_EXPLORER_([A-Z0-9_-]+)$/.exec(k);
    if (!m || v === undefined || v === '') continue;
    let ok = v.includes('{txid}');
    try {
      ok &&= ['http:', 'https:'].includes(new URL(v.replace('{txid}', 'x')).protocol);
    } catch {
      ok = false;
    }
    if (ok) out[m[1]!] = v;
    else problems.push(`${k} must be an http(s) link with {txid} where the transaction id goes (got "${v}")`);
  }
  return out;
}

/** CAMBIO_SMTP_URL and CAMBIO_MAIL_FROM. A problem never quotes the url (it may hold a password). */
function mailConfig(str: (k: string) => string | undefined, publicUrl: string, problems: string[]): Pick<Config, 'smtpUrl' | 'mailFrom'> {
  const url = str('CAMBIO_SMTP_URL');
  if (url !== undefined) {
    let ok = false;
    try {
      ok = ['smtp:', 'smtps:'].includes(new URL(url).protocol);
    } catch {
      ok = false;
    }
    if (!ok) problems.push('CAMBIO_SMTP_URL must be smtp://[user:password@]host[:port] or smtps://… (its value is not repeated here)');
  }
  let host = 'localhost';
  try {
    host = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '');
  } catch {
    /* reported with CAMBIO_PUBLIC_URL */
  }
  const from = str('CAMBIO_MAIL_FROM') ?? `Cambio <no-reply@${host}>`;
  if (!/^[^\r\n<>]*<?[^\s@<>]+@[^\s@<>]+>?$/.test(from))
    problems.push(`CAMBIO_MAIL_FROM must be an address such as "Cambio <no-reply@cambio.example.com>" (got "${from}")`);
  return { smtpUrl: url === undefined ? undefined : new Hidden(url), mailFrom: from };
}

/** CAMBIO_VENUE or CAMBIO_VENUES, and their companions (docs/market.md). The problems never quote a credential. */
function venueConfig(mode: string, str: (k: string) => string | undefined, problems: string[]): VenueConfig {
  const several = str('CAMBIO_VENUES');
  const one = str('CAMBIO_VENUE');
  if (several !== undefined && one !== undefined) {
    problems.push('CAMBIO_VENUE and CAMBIO_VENUES are both set: name one venue with CAMBIO_VENUE, or several with CAMBIO_VENUES, not both');
    return { kind: 'desk' };
  }
  if (several !== undefined) return severalVenues(mode, several, str, problems);
  const v = one ?? 'desk';
  if (v === 'desk') return { kind: 'desk' };
  const m = /^ccxt:([a-z0-9]+)$/.exec(v);
  if (!m) {
    problems.push(`CAMBIO_VENUE must be desk or ccxt:<exchange id>, e.g. ccxt:binance (got "${v}")`);
    return { kind: 'desk' };
  }
  if (mode !== 'production') {
    problems.push('CAMBIO_VENUE=ccxt:… is for CAMBIO_MODE=production: the sandbox always trades at its simulated venue');
    return { kind: 'desk' };
  }
  const account = ccxtAccount(m[1]!, m[1]!, `CAMBIO_VENUE=${v}`, 'CAMBIO_VENUE', str, problems);
  return { kind: 'ccxt', ...account, venues: [account] };
}

/** CAMBIO_VENUES=<name>=ccxt:<exchange>,…: several exchange accounts, each with CAMBIO_VENUE_<NAME>_URL, _API_KEY, _SECRET. */
function severalVenues(mode: string, list: string, str: (k: string) => string | undefined, problems: string[]): VenueConfig {
  if (mode !== 'production') {
    problems.push('CAMBIO_VENUES is for CAMBIO_MODE=production: the sandbox always trades at its simulated venue');
    return { kind: 'desk' };
  }
  const venues: CcxtAccountConfig[] = [];
  for (const item of list.split(',')) {
    const m = /^([a-z0-9]+)=ccxt:([a-z0-9]+)$/.exec(item.trim());
    if (!m) {
      problems.push(
        `CAMBIO_VENUES must be <name>=ccxt:<exchange id>, comma separated, names of a-z and 0-9, e.g. main=ccxt:binance,second=ccxt:binance (got "${item.trim()}")`,
      );
      continue;
    }
    const name = m[1]!;
    if (venues.some((x) => x.name === name)) {
      problems.push(`CAMBIO_VENUES names the venue "${name}" twice: each venue's name is its own`);
      continue;
    }
    venues.push(ccxtAccount(name, m[2]!, `CAMBIO_VENUES venue ${name}`, `CAMBIO_VENUE_${name.toUpperCase()}`, str, problems));
  }
  const first = venues[0];
  if (!first) return { kind: 'desk' };
  return { kind: 'ccxt', ...first, venues };
}

/** One exchange account: `prefix`_API_KEY, _SECRET and _URL. */
function ccxtAccount(
  name: string,
  exchangeId: string,
  what: string,
  prefix: string,
  str: (k: string) => string | undefined,
  problems: string[],
): CcxtAccountConfig {
  const exchange = CCXT_EXCHANGES.find((e) => e === exchangeId);
  if (!exchange) problems.push(`${what}: Cambio reads the exact answers of ${CCXT_EXCHANGES.join(', ')} only (got ccxt:${exchangeId})`);
  const apiKey = str(`${prefix}_API_KEY`);
  const secret = str(`${prefix}_SECRET`);
  if (apiKey === undefined || secret === undefined)
    problems.push(`${what} needs ${prefix}_API_KEY and ${prefix}_SECRET (the venue account's credentials)`);
  const password = str(`${prefix}_PASSWORD`);
  if (exchange && CCXT_NEEDS_PASSWORD.includes(exchange) && password === undefined)
    problems.push(`${what} needs ${prefix}_PASSWORD (the passphrase ${exchange} gave with the API key)`);
  const urlVar = `${prefix}_URL`;
  const url = str(urlVar);
  if (url !== undefined) {
    try {
      const u = new URL(url);
      if (!['http:', 'https:'].includes(u.protocol)) throw new Error('scheme');
      // The venue's key and signed requests would cross the network in clear: plain http only on this machine.
      if (u.protocol === 'http:' && !isLoopbackHost(u.hostname))
        problems.push(
          `${urlVar} must use https:// for a host other than this machine (got "${url}"): over http:// the venue key and every signed request travel in clear`,
        );
    } catch {
      problems.push(`${urlVar} must be an http(s) origin such as https://testnet.binance.vision (got "${url}")`);
    }
  }
  return {
    name,
    exchange: exchange ?? 'binance',
    url,
    apiKey: new Hidden(apiKey ?? ''),
    secret: new Hidden(secret ?? ''),
    password: password === undefined ? undefined : new Hidden(password),
  };
}

/** localhost, 127.0.0.0/8 or ::1: an address that never leaves this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/**
 * Reads `./.env` into process.env when present; variables already set win. process.loadEnvFile came
 * with Node 20.12 (the engines floor is higher); an older Node is told so instead of failing obscurely.
 */
export function loadDotEnv(path = '.env', proc: Pick<NodeJS.Process, 'loadEnvFile' | 'version'> = process): void {
  if (!existsSync(path)) return;
  if (typeof proc.loadEnvFile !== 'function') {
    throw new ConfigError(
      `${path} cannot be read by Node ${proc.version}: Node 20.12 or later is required (or set the variables in the environment and remove ${path})`,
    );
  }
  proc.loadEnvFile(path);
}
