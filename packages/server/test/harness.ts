import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import type { AppDeps } from '../src/deps.ts';
import { venueFor } from '../src/venues/index.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { hashOperatorToken } from '../src/http/plugins/operator-auth.ts';
import { DECISION_ROUTES } from '../src/http/plugins/operator-roles.ts';
import { randomIds } from '../src/domain/ids.ts';
import { ManualClock, systemClock, type Clock } from '../src/domain/ports.ts';
import { openDatabase } from '../src/store/db.ts';
import { Store } from '../src/store/index.ts';
import { NotifiedAuthCache, noAuthCache } from '../src/store/auth-cache.ts';
import type { AuthChanges } from '../src/store/auth-changes.ts';
import type { KeyForAuth } from '../src/store/keys-store.ts';
import { totpCode } from '../src/domain/people/totp.ts';
import { createFromTemplate, pgliteImage, pgliteImageInMemory, stampOpened } from './store-image.ts';

export type Backend = 'pglite' | 'postgres';

/** A decision route of the operator API (the bootstrap token makes none in production). */
export function isDecision(method: string, url: string): boolean {
  const path = url.split('?')[0]!;
  return [...DECISION_ROUTES].some((r) => {
    const [m, pattern] = r.split(' ') as [string, string];
    return m === method.toUpperCase() && new RegExp(`^${pattern.replace(/:[a-z]+/gi, '[^/]+')}$`).test(path);
  });
}

/** PGlite always; PostgreSQL too when DATABASE_URL is set (each harness gets its own fresh database). */
export function backends(): Backend[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export const OPERATOR_TOKEN = 'test-operator-token-0123456789';
export const SECRET = 'test-secret-0123456789abcdef0123456789';

export interface Harness {
  app: FastifyInstance;
  store: Store;
  clock: Clock;
  config: Config;
  deps: AppDeps;
  backend: Backend;
  /** The auth cache and the notifications it hears (null with CAMBIO_AUTH_CACHE_TTL_MS=0). */
  authCache: NotifiedAuthCache<KeyForAuth> | null;
  authChanges: AuthChanges | null;
  /** Calls the operator API; returns the parsed envelope and status. */
  op(method: string, url: string, body?: unknown): Promise<Res>;
  /** Calls the client API with a key. */
  call(key: string | null, method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<Res>;
  close(): Promise<void>;
}

export interface Res {
  status: number;
  body: {
    success: boolean;
    message: string | null;
    data: any;
    code: string | null;
    timestamp: string;
    traceId: string | null;
    pagination: any;
  };
  headers: LightMyRequestResponse['headers'];
  raw: string;
}

/** A PostgreSQL database of its own, migrated: a copy of the run's template (store-image.ts). */
export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.DATABASE_URL!;
  const name = `cambio_test_${randomBytes(6).toString('hex')}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  try {
    await createFromTemplate(c, name);
  } finally {
    await c.end();
  }
  const u = new URL(admin);
  u.pathname = `/${name}`;
  const url = u.toString();
  return {
    url,
    drop: async () => {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    },
  };
}

/**
 * `storage`: open an existing store instead of a fresh one (a restart): `dataDir` for PGlite, `databaseUrl`
 * for PostgreSQL (not dropped on close; the caller made it).
 */
export async function makeHarness(
  opts: {
    backend?: Backend;
    manualClock?: boolean;
    env?: Record<string, string>;
    webApps?: AppDeps['webApps'];
    storage?: { dataDir?: string; databaseUrl?: string };
    /** Adapters a test stands in (the app copies its deps when built, so set them here, not on `h.deps` later). */
    deps?: Pick<AppDeps, 'webhookResolve' | 'logger' | 'mail'>;
    /** How soon a dropped auth-listening connection is opened again (PostgreSQL). */
    authListenRetryMs?: number;
  } = {},
): Promise<Harness> {
  const backend = opts.backend ?? 'pglite';
  const config = loadConfig({ CAMBIO_RATE_LIMIT_PER_MIN: '0', ...opts.env });
  const clock: Clock = opts.manualClock ? new ManualClock(Date.now()) : systemClock;
  let drop = async () => {};
  let databaseUrl: string | undefined;
  if (opts.storage?.databaseUrl) {
    databaseUrl = opts.storage.databaseUrl;
  } else if (backend === 'postgres') {
    const db = await createPgDatabase();
    databaseUrl = db.url;
    drop = db.drop;
  }
  const dataDir = opts.storage?.dataDir ?? 'memory://';
  // PGlite starts from the run's migrated image (store-image.ts) when the store is new.
  const fromImage = !databaseUrl && (dataDir === 'memory://' || !existsSync(join(dataDir, 'pgdata', 'PG_VERSION')));
  const image = !fromImage ? undefined : dataDir === 'memory://' ? await pgliteImageInMemory() : await pgliteImage();
  const opened = await openDatabase({ databaseUrl, dataDir, poolSize: 20, image });
  if (fromImage) await stampOpened(opened.db);
  // As main.ts chooses it: the auth cache unless CAMBIO_AUTH_CACHE_TTL_MS=0.
  const authChanges =
    config.authCacheTtlMs > 0
      ? await opened.authChanges(opts.authListenRetryMs === undefined ? {} : { retryMs: opts.authListenRetryMs })
      : null;
  const authCache = authChanges ? new NotifiedAuthCache<KeyForAuth>(authChanges, config.authCacheTtlMs) : null;
  const store = new Store(opened, randomIds, clock, { authCache: authCache ?? noAuthCache });
  const deps: AppDeps = {
    config: { ...config, databaseUrl },
    store,
    clock,
    ids: randomIds,
    venue: venueFor(config, store, clock, opts.deps?.logger),
    secret: SECRET,
    operatorTokenHash: hashOperatorToken(OPERATOR_TOKEN),
    ...(opts.webApps ? { webApps: opts.webApps } : {}),
    ...opts.deps,
  };
  const app = await buildApp(deps);
  await app.ready();
  let deskToken: Promise<string> | undefined;
  const staffToken = async (): Promise<string> => {
    const h = {
      app,
      clock,
      op: (m: string, u: string, b?: unknown) => inject(m, `/operator/v1${u}`, b, { authorization: `Bearer ${OPERATOR_TOKEN}` }),
    };
    const s = await signedInStaff(h as unknown as Harness, 'admin');
    const t = await withCookie(h as unknown as Harness, s.cookie, 'POST', '/operator/v1/tokens', { name: 'harness desk' });
    if (t.status !== 201) throw new Error(`staff token: ${t.raw}`);
    return t.body.data.token as string;
  };
  const inject = async (method: string, url: string, body: unknown, headers: Record<string, string>): Promise<Res> => {
    const r = await app.inject({
      method: method as 'GET',
      url,
      headers: { 'x-lang': 'en', ...headers },
      ...(body !== undefined
        ? {
            payload: typeof body === 'string' ? body : JSON.stringify(body, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
            headers: { 'content-type': 'application/json', 'x-lang': 'en', ...headers },
          }
        : {}),
    });
    // A file (the ledger CSV) is not the envelope: `raw` has it, `body` is empty.
    const json = /^application\/json/.test(String(r.headers['content-type'] ?? 'application/json'));
    return { status: r.statusCode, body: json ? r.json() : ({} as Res['body']), headers: r.headers, raw: r.body };
  };
  return {
    app,
    store,
    clock,
    config: deps.config,
    deps,
    backend,
    authCache,
    authChanges,
    // In production the bootstrap token decides nothing (403 auth.bootstrap_cannot_decide): a decision goes
    // through a staff admin of the harness's own, with TOTP, signed in by a personal token.
    op: async (m, u, b) =>
      inject(m, `/operator/v1${u}`, b, {
        authorization: `Bearer ${deps.config.mode === 'production' && isDecision(m, u) ? await (deskToken ??= staffToken()) : OPERATOR_TOKEN}`,
      }),
    call: (k, m, u, b, h = {}) => inject(m, `/api/v1${u}`, b, { ...(k ? { 'x-api-key': k } : {}), ...h }),
    close: async () => {
      await app.close();
      await store.close();
      await drop();
    },
  };
}

export const ALL_PERMISSIONS = [
  'portal:read',
  'portal:trade',
  'portal:deposit',
  'portal:destinations',
  'portal:withdraw',
  'portal:webhooks',
  'portal:api_keys',
  'portal:team',
];
export const ALL_SCOPES = ['portal:read', 'portal:trade', 'portal:deposit', 'portal:destinations', 'portal:withdraw'];

export interface SeededOrg {
  orgId: string;
  memberId: string;
  key: string;
  keyId: string;
}

/** Lists assets (symbol → decimals) at the market; idempotent. */
export async function listAssets(h: Harness, assets: Record<string, number>): Promise<void> {
  for (const [symbol, decimals] of Object.entries(assets)) {
    const r = await h.op('PUT', `/market/assets/${symbol}`, { decimals });
    if (r.status !== 200) throw new Error(`listing ${symbol}: ${r.raw}`);
  }
}

/** The BTC/USD pair most tests trade: 50 bps spread, 10 bps fee, 1.00 USD fixed fee, 0.0001–10 BTC. */
export const BTC_USD = {
  midRate: '65000.00',
  spreadBps: 50,
  feeBps: 10,
  fixedFeeQuoteMinor: '100',
  minBaseMinor: '10000',
  maxBaseMinor: '1000000000',
};

/** USD (2 decimals) and BTC (8) listed, and BTC/USD priced as BTC_USD. */
export async function btcUsdMarket(h: Harness): Promise<void> {
  await listAssets(h, { USD: 2, BTC: 8 });
  const r = await h.op('PUT', '/market/pairs/BTC/USD', BTC_USD);
  if (r.status !== 200) throw new Error(`pricing BTC/USD: ${r.raw}`);
}

/** A fresh organization with a member, a key and balances, all through the operator API. */
export async function seedOrg(
  h: Harness,
  o: {
    name?: string;
    status?: string;
    limits?: unknown;
    permissions?: string[];
    scopes?: string[];
    balances?: Record<string, bigint | string>;
  } = {},
): Promise<SeededOrg> {
  const org = await h.op('POST', '/organizations', {
    name: o.name ?? 'Org',
    status: o.status ?? 'active',
    limits: o.limits === undefined ? {} : o.limits,
  });
  if (org.status !== 201) throw new Error(`org: ${org.raw}`);
  const mem = await h.op('POST', `/organizations/${org.body.data.id}/members`, {
    name: 'M',
    email: `m${randomBytes(4).toString('hex')}@x.test`,
    permissions: o.permissions ?? ALL_PERMISSIONS,
  });
  if (mem.status !== 201) throw new Error(`member: ${mem.raw}`);
  const key = await h.op('POST', `/members/${mem.body.data.id}/api-keys`, { scopes: o.scopes ?? ALL_SCOPES });
  if (key.status !== 201) throw new Error(`key: ${key.raw}`);
  for (const [asset, amount] of Object.entries(o.balances ?? {})) {
    const a = await h.op('POST', `/organizations/${org.body.data.id}/adjustments`, {
      assetSymbol: asset,
      amountMinor: amount.toString(),
      reason: 'test funding',
    });
    if (a.status !== 201) throw new Error(`adjust: ${a.raw}`);
  }
  return { orgId: org.body.data.id, memberId: mem.body.data.id, key: key.body.data.key, keyId: key.body.data.id };
}

/** Available balance of one asset, read through the client API. */
export async function available(h: Harness, key: string, asset: string): Promise<bigint> {
  const r = await h.call(key, 'GET', '/balances');
  const row = (r.body.data as Array<{ assetSymbol: string; amountMinor: string }>).find((b) => b.assetSymbol === asset);
  return BigInt(row?.amountMinor ?? '0');
}
export async function held(h: Harness, key: string, asset: string): Promise<bigint> {
  const r = await h.call(key, 'GET', '/balances');
  const row = (r.body.data as Array<{ assetSymbol: string; heldMinor: string }>).find((b) => b.assetSymbol === asset);
  return BigInt(row?.heldMinor ?? '0');
}

/** A bank destination of the key's organization, registered in the market (usable once the harness's cooldown has passed). */
export async function usableDestination(h: Harness, key: string, body: Record<string, string> = {}): Promise<string> {
  const r = await h.call(key, 'POST', '/withdrawals/destinations/bank', {
    label: 'Main',
    assetSymbol: 'USD',
    bankName: 'Banco Río',
    accountKind: 'checking',
    accountNumber: '77778888',
    holderName: 'Acme SA',
    holderDocument: '30-1',
    ...body,
  });
  if (r.status !== 201) throw new Error(`destination: ${r.raw}`);
  const m = await h.op('POST', `/destinations/${r.body.data.id}/register-in-market`);
  if (m.status !== 200) throw new Error(`register in market: ${m.raw}`);
  return r.body.data.id;
}

/** The service's own origin under the harness's defaults (CAMBIO_PUBLIC_URL unset: http://HOST:PORT). */
export const ORIGIN = 'http://127.0.0.1:8080';

/** `name=value` of the session cookie a response set. */
export function cookieFrom(r: { headers: Record<string, unknown> }): string {
  const raw = r.headers['set-cookie'];
  const c = (Array.isArray(raw) ? raw[0] : raw) as string | undefined;
  if (!c) throw new Error('no cookie was set');
  return c.split(';')[0]!;
}

/** A request carrying a session cookie, from the service's own origin unless told otherwise. */
/**
 * The origin the service accepts cookie writes from: the harness's own, or, once the app listens without a
 * CAMBIO_PUBLIC_URL (a browser test), the address it is bound to (docs/security.md).
 */
function originOf(h: Pick<Harness, 'app'> & { config?: Harness['config'] }): string {
  if (h.config?.publicUrlSet) return h.config.publicUrl;
  const a = h.app.server.listening ? h.app.server.address() : null;
  return a && typeof a === 'object' ? `http://127.0.0.1:${a.port}` : ORIGIN;
}

export async function withCookie(
  h: Harness,
  cookie: string,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Res> {
  const r = await h.app.inject({
    method: method as 'GET',
    url,
    headers: {
      cookie,
      origin: originOf(h),
      'x-lang': 'en',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: r.statusCode, body: r.json(), headers: r.headers, raw: r.body };
}

export const PASSWORD = 'correct horse battery 42';
let people = 0;

/** A member invited by the operator who accepted the invitation: signed in (the cookie). */
export async function signedInMember(
  h: Harness,
  orgId: string,
  permissions: string[] = ALL_PERMISSIONS,
): Promise<{ memberId: string; email: string; cookie: string }> {
  const email = `p${++people}-${randomBytes(3).toString('hex')}@x.test`;
  const m = await h.op('POST', `/organizations/${orgId}/members`, { name: `Person ${people}`, email, permissions });
  if (m.status !== 201) throw new Error(`member: ${m.raw}`);
  const token = (m.body.data.invitation.url as string).split('#')[1]!;
  const r = await h.app.inject({
    method: 'POST',
    url: '/portal/v1/invitations/accept',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ token, password: PASSWORD }),
  });
  if (r.statusCode !== 200) throw new Error(`accept: ${r.body}`);
  return { memberId: m.body.data.id, email, cookie: cookieFrom(r) };
}

/** A staff person invited by the bootstrap token, signed in, with TOTP enrolled unless `totp: false`. */
export async function signedInStaff(
  h: Harness,
  role: 'viewer' | 'approver' | 'admin' | 'auditor',
  opts: { totp?: boolean } = {},
): Promise<{ staffId: string; email: string; name: string; cookie: string; totpSecret: string | null }> {
  const email = `s${++people}-${randomBytes(3).toString('hex')}@desk.test`;
  const name = `Staff ${people}`;
  const s = await h.op('POST', '/staff', { name, email, role });
  if (s.status !== 201) throw new Error(`staff: ${s.raw}`);
  const token = (s.body.data.invitation.url as string).split('#')[1]!;
  const r = await h.app.inject({
    method: 'POST',
    url: '/operator/v1/invitations/accept',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ token, password: PASSWORD }),
  });
  if (r.statusCode !== 200) throw new Error(`accept: ${r.body}`);
  const cookie = cookieFrom(r);
  let totpSecret: string | null = null;
  if (opts.totp !== false) {
    const e = await withCookie(h, cookie, 'POST', '/operator/v1/totp/enrol');
    totpSecret = e.body.data.secret;
    const c = await withCookie(h, cookie, 'POST', '/operator/v1/totp/confirm', { code: totpCode(totpSecret!, h.clock.now()) });
    if (c.status !== 200) throw new Error(`totp: ${c.raw}`);
  }
  return { staffId: s.body.data.staff.id, email, name, cookie, totpSecret };
}

/**
 * Events are listed once every transaction older than theirs has ended (a cursor never skips a late
 * commit). On PostgreSQL that horizon is the server's, so a transaction in another test's database can
 * hold a fresh event back for a moment: wait until the organization's newest event is behind it.
 */
export async function eventsSettled(h: Harness, orgId: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const r = await sql<{ ok: boolean }>`select coalesce(max(txid), 0) < pg_snapshot_xmin(pg_current_snapshot())::text::bigint as ok
      from events where organization_id = ${orgId}`.execute(h.store.db);
    if (r.rows[0]!.ok) return;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`the events of ${orgId} stayed behind a running transaction for 10 s`);
}
