import type { Rng } from './prng.ts';
import type { Asset, Pair, World } from './world.ts';

const ALL_PERMISSIONS = ['portal:read', 'portal:trade', 'portal:deposit', 'portal:destinations', 'portal:withdraw', 'portal:api_keys'];
const ALL_SCOPES = ['portal:read', 'portal:trade', 'portal:deposit', 'portal:destinations', 'portal:withdraw'];

const ASSETS: Asset[] = [
  { symbol: 'USD', decimals: 2, network: 'ach', kind: 'fiat' },
  { symbol: 'BTC', decimals: 8, network: 'bitcoin', kind: 'crypto', destinationNetwork: { venue: 'BTC', other: 'bitcoin' } },
  { symbol: 'EUR', decimals: 2, network: 'sepa', kind: 'fiat' },
];

/** midRate is whole quote per whole base (docs/design/money-and-states.md); the fixed fee makes small orders unexecutable on purpose. */
const PAIRS = [
  {
    base: 'BTC',
    quote: 'USD',
    midRate: '60000',
    spreadBps: 50,
    feeBps: 10,
    fixedFeeQuoteMinor: '100',
    minBaseMinor: '10000',
    maxBaseMinor: '100000000',
  },
  {
    base: 'USD',
    quote: 'BTC',
    midRate: '0.0000165',
    spreadBps: 40,
    feeBps: 10,
    fixedFeeQuoteMinor: '0',
    minBaseMinor: '100',
    maxBaseMinor: '10000000',
  },
  {
    base: 'EUR',
    quote: 'USD',
    midRate: '1.08',
    spreadBps: 30,
    feeBps: 5,
    fixedFeeQuoteMinor: '0',
    minBaseMinor: '100',
    maxBaseMinor: '50000000',
  },
  {
    base: 'USD',
    quote: 'EUR',
    midRate: '0.92',
    spreadBps: 30,
    feeBps: 5,
    fixedFeeQuoteMinor: '0',
    minBaseMinor: '100',
    maxBaseMinor: '50000000',
  },
];

/**
 * Production at a CCXT venue (the loopback Binance double): the same pairs priced from the venue's
 * books, BTC/USD and EUR/USD markets, each traded either way round.
 */
const VENUE_PAIRS = [
  {
    base: 'BTC',
    quote: 'USD',
    source: 'venue',
    venueSymbol: 'BTC/USD',
    spreadBps: 50,
    feeBps: 10,
    fixedFeeQuoteMinor: '100',
    minBaseMinor: '10000',
    maxBaseMinor: '100000000',
    step: 1000n,
  },
  {
    base: 'USD',
    quote: 'BTC',
    source: 'venue',
    venueSymbol: 'BTC/USD',
    spreadBps: 40,
    feeBps: 10,
    fixedFeeQuoteMinor: '0',
    minBaseMinor: '1000',
    maxBaseMinor: '10000000',
  },
  {
    base: 'EUR',
    quote: 'USD',
    source: 'venue',
    venueSymbol: 'EUR/USD',
    spreadBps: 30,
    feeBps: 5,
    fixedFeeQuoteMinor: '0',
    minBaseMinor: '1000',
    maxBaseMinor: '50000000',
  },
  {
    base: 'USD',
    quote: 'EUR',
    source: 'venue',
    venueSymbol: 'EUR/USD',
    spreadBps: 30,
    feeBps: 5,
    fixedFeeQuoteMinor: '0',
    minBaseMinor: '1000',
    maxBaseMinor: '50000000',
  },
];

/** Funding per organization; every third one is small, so balances run out and requests race for the last of them. */
const FUNDING = {
  large: { USD: 100_000_000n, BTC: 1_000_000_000n, EUR: 50_000_000n },
  small: { USD: 50_000n, BTC: 2_000_000n, EUR: 30_000n },
};

async function must(w: World, rng: Rng, what: string, method: string, path: string, body?: unknown): Promise<any> {
  const r = await w.send(rng, 'seed', method, path, { operator: true, body });
  if (r.kind !== 'answered' || r.status >= 300) throw new Error(`seeding ${what}: ${r.kind === 'answered' ? r.raw : r.error}`);
  return r.body.data;
}

/** Assets, pairs, wallets and organizations (with a member, a key and balances), all through the operator API. */
export async function seed(w: World, rng: Rng, orgCount: number, venue = false): Promise<void> {
  for (const a of ASSETS)
    await must(w, rng, `asset ${a.symbol}`, 'PUT', `/operator/v1/market/assets/${a.symbol}`, { decimals: a.decimals, kind: a.kind });
  w.assets = ASSETS;
  w.atVenue = venue;
  if (w.has('PUT', '/operator/v1/market/pairs/{base}/{quote}')) {
    const pairs: Array<(typeof PAIRS)[number] | (typeof VENUE_PAIRS)[number]> = venue ? VENUE_PAIRS : PAIRS;
    for (const p of pairs) {
      const { base, quote, ...rest } = p;
      const { step: _step, ...terms } = rest as typeof rest & { step?: bigint };
      await must(w, rng, `pair ${base}/${quote}`, 'PUT', `/operator/v1/market/pairs/${base}/${quote}`, terms);
    }
    w.pairs = pairs.map((p): Pair => ({
      base: p.base,
      quote: p.quote,
      minBase: BigInt(p.minBaseMinor),
      maxBase: BigInt(p.maxBaseMinor),
      ...('step' in p ? { step: p.step } : {}),
    }));
  }
  if (w.has('PUT', '/operator/v1/wallets/{symbol}')) {
    for (const a of ASSETS)
      await must(w, rng, `wallet ${a.symbol}`, 'PUT', `/operator/v1/wallets/${a.symbol}`, {
        network: a.network,
        address: `verify-${a.symbol.toLowerCase()}-wallet`,
      });
  }
  for (let i = 0; i < orgCount; i++) {
    const small = i % 3 === 2;
    // Every fourth organization has caps loaded, so limit refusals happen too.
    const limits =
      i % 4 === 3
        ? {
            BTC: { maxOrderMinor: '20000000', maxWithdrawalMinor: '5000000' },
            USD: { maxOrderMinor: '2000000', maxWithdrawalMinor: '300000' },
          }
        : {};
    const org = await must(w, rng, 'organization', 'POST', '/operator/v1/organizations', { name: `Verify ${i}`, status: 'active', limits });
    const mem = await must(w, rng, 'member', 'POST', `/operator/v1/organizations/${org.id}/members`, {
      name: `Member ${i}`,
      email: `m${i}@verify.test`,
      permissions: ALL_PERMISSIONS,
    });
    const key = await must(w, rng, 'key', 'POST', `/operator/v1/members/${mem.id}/api-keys`, { scopes: ALL_SCOPES });
    w.secrets.add('API key', key.key);
    w.secrets.add('API key secret', String(key.key).split('.')[1]!);
    // The member's invitation (its token rides in the url's fragment): a secret the people workload uses.
    const invitation = typeof mem.invitation?.url === 'string' ? String(mem.invitation.url).split('#')[1] : undefined;
    if (invitation) w.secrets.add('invitation token', invitation);
    w.orgs.push({ id: org.id, memberId: mem.id, key: key.key, keyId: key.id, small, ...(invitation ? { invitation } : {}) });
    for (const [asset, amount] of Object.entries(small ? FUNDING.small : FUNDING.large)) {
      const reason = w.unique('funding');
      const t = w.history.begin('adjustment', reason);
      const r = await w.send(rng, 'seed', 'POST', `/operator/v1/organizations/${org.id}/adjustments`, {
        operator: true,
        body: { assetSymbol: asset, amountMinor: amount.toString(), reason },
      });
      if (r.kind !== 'answered' || r.status !== 201) {
        w.history.end(t, r.kind === 'lost' ? 'lost' : null);
        throw new Error(`funding: ${r.kind === 'answered' ? r.raw : r.error}`);
      }
      w.history.end(t, { id: r.body.data.entryId });
    }
  }
}
