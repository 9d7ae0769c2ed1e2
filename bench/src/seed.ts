import { randomBytes } from 'node:crypto';
import { OPERATOR_TOKEN } from './processes.ts';

export interface BenchOrg {
  id: string;
  key: string;
  /** A USD bank destination registered in the market, when seeded for withdrawals. */
  destinationId?: string;
}
/** The operator's headers, for requests the load generator sends as the operator (approvals). */
export const OPERATOR_HEADERS: Record<string, string> = { authorization: `Bearer ${OPERATOR_TOKEN}`, 'x-operator': 'bench' };
export interface Seeded {
  /** The organizations the spread scenarios rotate over. */
  orgs: BenchOrg[];
  /** One organization with a huge balance: every order of the hot scenario holds from its one row. */
  hot: BenchOrg;
  /** False when the market pairs endpoint is missing (quotes/orders not built yet): those scenarios are skipped. */
  pricing: boolean;
}

export const BASE = 'BTC';
export const QUOTE = 'USD';
/** Base amount of every quote: 0.001 BTC. */
export const QUOTE_BASE_MINOR = '100000';
// Enough for every order of a run: at most ~10^5 orders of 10^5 each per organization.
const SPREAD_FUNDING = '1000000000000000';
const HOT_FUNDING = '1000000000000000000';

async function op(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; data: any; raw: string }> {
  const r = await fetch(`${url}/operator/v1${path}`, {
    method,
    headers: {
      ...OPERATOR_HEADERS,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const raw = await r.text();
  let data: any = null;
  try {
    data = JSON.parse(raw).data;
  } catch {
    /* not JSON: raw says why */
  }
  return { status: r.status, data, raw };
}

function must(r: { status: number; raw: string }, want: number, what: string) {
  if (r.status !== want) throw new Error(`seeding: ${what} answered ${r.status}: ${r.raw.slice(0, 300)}`);
}

/**
 * An active organization with limits `{}` (no caps), a member, a key (read + trade, + webhooks if asked) and
 * funded balances; for withdrawals, the key may also withdraw and the organization has a destination
 * registered in the market (usable at once under CAMBIO_DESTINATION_COOLDOWN_MS=0).
 */
async function seedOrg(url: string, name: string, baseFunding: string, opts: SeedOptions): Promise<BenchOrg> {
  const scopes = [
    'portal:read',
    'portal:trade',
    ...(opts.webhooks ? ['portal:webhooks'] : []),
    ...(opts.withdrawals ? ['portal:destinations', 'portal:withdraw'] : []),
  ];
  const org = await op(url, 'POST', '/organizations', { name, status: 'active', limits: {} });
  must(org, 201, 'POST /organizations');
  const mem = await op(url, 'POST', `/organizations/${org.data.id}/members`, {
    name: 'Bench',
    email: `bench-${randomBytes(4).toString('hex')}@bench.test`,
    permissions: [...scopes, 'portal:api_keys'],
  });
  must(mem, 201, 'POST /members');
  const key = await op(url, 'POST', `/members/${mem.data.id}/api-keys`, { scopes });
  must(key, 201, 'POST /api-keys');
  for (const [asset, amountMinor] of [
    [BASE, baseFunding],
    [QUOTE, '1000000000'],
  ] as const) {
    const a = await op(url, 'POST', `/organizations/${org.data.id}/adjustments`, {
      assetSymbol: asset,
      amountMinor,
      reason: 'bench funding',
    });
    must(a, 201, 'POST /adjustments');
  }
  if (!opts.withdrawals) return { id: org.data.id, key: key.data.key };
  const dest = await fetch(`${url}/api/v1/withdrawals/destinations/bank`, {
    method: 'POST',
    headers: { 'x-api-key': key.data.key, 'content-type': 'application/json' },
    body: JSON.stringify({
      label: 'Bench',
      assetSymbol: QUOTE,
      bankName: 'Banco Bench',
      accountKind: 'checking',
      accountNumber: `0012-${randomBytes(4).toString('hex')}`,
      holderName: name,
      holderDocument: 'V-0001',
    }),
  });
  const destRaw = await dest.text();
  must({ status: dest.status, raw: destRaw }, 201, 'POST /withdrawals/destinations/bank');
  const destinationId = (JSON.parse(destRaw) as { data: { id: string } }).data.id;
  must(await op(url, 'POST', `/destinations/${destinationId}/register-in-market`), 200, 'POST /register-in-market');
  return { id: org.data.id, key: key.data.key, destinationId };
}

export interface SeedOptions {
  /** The keys may manage webhooks. */
  webhooks?: boolean;
  /** The keys may withdraw, to a destination each organization has. */
  withdrawals?: boolean;
}

/** Everything through the operator API, as a desk would: assets, the priced pair, organizations, keys, balances. */
export async function seed(url: string, orgCount: number, opts: SeedOptions = {}): Promise<Seeded> {
  must(await op(url, 'PUT', `/market/assets/${BASE}`, { decimals: 8 }), 200, `PUT /market/assets/${BASE}`);
  must(await op(url, 'PUT', `/market/assets/${QUOTE}`, { decimals: 2 }), 200, `PUT /market/assets/${QUOTE}`);
  const pair = await op(url, 'PUT', `/market/pairs/${BASE}/${QUOTE}`, {
    midRate: '60000.00',
    spreadBps: 50,
    feeBps: 10,
    fixedFeeQuoteMinor: '0',
    minBaseMinor: '1000',
    maxBaseMinor: '100000000000',
  });
  const pricing = pair.status === 200 || pair.status === 201;
  if (!pricing && pair.status !== 404) must(pair, 200, `PUT /market/pairs/${BASE}/${QUOTE}`);

  const orgs: BenchOrg[] = [];
  const queue = Array.from({ length: orgCount }, (_, i) => i);
  // A few at a time: seeding is not what is measured, and the server is one process.
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) orgs[i] = await seedOrg(url, `Bench ${i + 1}`, SPREAD_FUNDING, opts);
    }),
  );
  const hot = await seedOrg(url, 'Bench hot', HOT_FUNDING, {});
  return { orgs, hot, pricing };
}

/** Whether a client route exists yet (another capability may still be building it). */
export async function routeExists(url: string, method: string, path: string, key: string): Promise<boolean> {
  const r = await fetch(`${url}${path}`, {
    method,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: method === 'GET' ? null : '{}',
  });
  await r.text();
  // An empty body is a 422 on a route that exists; only an unknown route is a 404.
  return r.status !== 404;
}
