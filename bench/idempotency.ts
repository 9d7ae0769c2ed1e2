// Short A/B bench of Idempotency-Key: the creating calls POST /api/v1/quotes, /orders and
// /withdrawals with a fresh key each versus none. Each round runs one leg of each, alternating which goes
// first (ABBA), and legs are short, so a shared machine's drift hits both alike; the figure is the median
// of the rounds' ratios.
// Usage: node --import tsx bench/idempotency.ts [seconds-per-leg=1.5] [rounds=9] [calls=quotes,orders,withdrawals]
// (DATABASE_URL: also PostgreSQL; BENCH_STORES=postgres or pglite: that store alone)
import { randomUUID } from 'node:crypto';
import { backends, listAssets, makeHarness, seedOrg, usableDestination } from '../packages/server/test/harness.ts';
import { median } from './src/load.ts';

const seconds = Number(process.argv[2] ?? 1.5);
const rounds = Number(process.argv[3] ?? 9);
const CONCURRENCY = 16;
const only = new Set((process.argv[4] ?? 'quotes,orders,withdrawals').split(','));

/** One creating call; `prepare` makes (unmeasured) what the next leg's calls consume, given how many may run. */
interface Scenario {
  call: (keyed: boolean) => Promise<number>;
  prepare?: (calls: number) => Promise<void>;
}

async function leg(s: Scenario, keyed: boolean, expected: number): Promise<number> {
  await s.prepare?.(Math.ceil(expected * seconds * 1.5) + CONCURRENCY);
  const start = Date.now();
  const end = start + seconds * 1000;
  let done = 0;
  let exhausted = false;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end && !exhausted) {
        const status = await s.call(keyed);
        if (status === 0) {
          exhausted = true;
          break;
        } // prepared work ran out: the leg ends here
        if (status !== 201) throw new Error(`unexpected ${status}`);
        done++;
      }
    }),
  );
  return done / ((Date.now() - start) / 1000);
}

const stores = process.env.BENCH_STORES?.split(',');
for (const backend of backends().filter((b) => !stores || stores.includes(b))) {
  const h = await makeHarness({ backend, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0', CAMBIO_QUOTE_TTL_MS: '600000' } });
  const base = await h.app.listen({ port: 0, host: '127.0.0.1' });
  await listAssets(h, { USD: 2, BTC: 8 });
  await h.op('PUT', '/market/pairs/BTC/USD', {
    midRate: '65000.00',
    spreadBps: 100,
    feeBps: 10,
    fixedFeeQuoteMinor: '0',
    minBaseMinor: '10000',
    maxBaseMinor: '1000000000000',
  });
  const o = await seedOrg(h, { balances: { USD: 10n ** 30n, BTC: 10n ** 30n } });
  const dst = await usableDestination(h, o.key);
  const send = async (path: string, body: unknown, keyed: boolean) =>
    fetch(`${base}/api/v1${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'x-api-key': o.key, 'content-type': 'application/json', ...(keyed ? { 'idempotency-key': randomUUID() } : {}) },
    });
  const post = (path: string, body: unknown) => async (keyed: boolean) =>
    await send(path, body, keyed).then(async (r) => {
      await r.arrayBuffer();
      return r.status;
    });
  const quoteBody = { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' };
  // Orders accept a quote once: each leg first makes (without a key, unmeasured) the quotes it may accept.
  const quotes: string[] = [];
  const scenarios: Record<string, Scenario> = {
    quotes: { call: post('/quotes', quoteBody) },
    orders: {
      prepare: async (n) => {
        quotes.length = 0;
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            while (quotes.length < n)
              quotes.push(((await (await send('/quotes', quoteBody, false)).json()) as { data: { id: string } }).data.id);
          }),
        );
      },
      call: async (keyed) => {
        const quoteId = quotes.pop();
        return quoteId === undefined ? 0 : post('/orders', { quoteId })(keyed);
      },
    },
    withdrawals: { call: post('/withdrawals', { destinationId: dst, assetSymbol: 'USD', assetDecimals: 2, amountMinor: '1' }) },
  };
  for (const [name, s] of Object.entries(scenarios)) {
    if (!only.has(name)) continue;
    // Warm-up of both paths (the keyed one has code of its own to compile); also sizes what a leg prepares.
    const warm = Math.max(await leg(s, false, 1000 / seconds), await leg(s, true, 1000 / seconds));
    const without: number[] = [];
    const withKey: number[] = [];
    const ratios: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const expected = Math.max(warm, ...without, ...withKey);
      const a = r % 2 === 0 ? await leg(s, false, expected) : 0;
      const b = await leg(s, true, expected);
      const c = r % 2 === 0 ? a : await leg(s, false, expected);
      without.push(c);
      withKey.push(b);
      ratios.push(b / c);
    }
    const f = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' ');
    console.log(
      `${backend} ${name}: without key ${median(without).toFixed(0)} req/s [${f(without)}], with key ${median(withKey).toFixed(0)} req/s [${f(withKey)}], with/without median ${median(ratios).toFixed(3)} [${ratios.map((x) => x.toFixed(2)).join(' ')}]`,
    );
  }
  await h.close();
}
