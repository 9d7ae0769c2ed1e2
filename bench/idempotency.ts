// Short A/B bench of Idempotency-Key (issue 17): creating calls (POST /api/v1/quotes, POST /api/v1/withdrawals)
// with a fresh key each versus none, alternated in rounds so a shared machine's drift hits both alike.
// Usage: node --import tsx bench/idempotency.ts [seconds-per-leg=5] [rounds=3] (DATABASE_URL: also PostgreSQL)
import { randomUUID } from 'node:crypto';
import { backends, listAssets, makeHarness, seedOrg, usableDestination } from '../packages/server/test/harness.ts';

const seconds = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 3);
const CONCURRENCY = 16;

async function leg(call: (keyed: boolean) => Promise<number>, keyed: boolean): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let done = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (Date.now() < end) {
      const status = await call(keyed);
      if (status !== 201) throw new Error(`unexpected ${status}`);
      done++;
    }
  }));
  return done / seconds;
}

for (const backend of backends()) {
  const h = await makeHarness({ backend, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
  const base = await h.app.listen({ port: 0, host: '127.0.0.1' });
  await listAssets(h, { USD: 2, BTC: 8 });
  await h.op('PUT', '/market/pairs/BTC/USD', { midRate: '65000.00', spreadBps: 100, feeBps: 10, fixedFeeQuoteMinor: '0', minBaseMinor: '10000', maxBaseMinor: '1000000000000' });
  const o = await seedOrg(h, { balances: { USD: 10n ** 30n } });
  const dst = await usableDestination(h, o.key);
  const post = (path: string, body: unknown) => async (keyed: boolean) => (await fetch(`${base}/api/v1${path}`, {
    method: 'POST', body: JSON.stringify(body),
    headers: { 'x-api-key': o.key, 'content-type': 'application/json', ...(keyed ? { 'idempotency-key': randomUUID() } : {}) },
  }).then(async (r) => { await r.arrayBuffer(); return r.status; }));
  const scenarios = {
    quotes: post('/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' }),
    withdrawals: post('/withdrawals', { destinationId: dst, assetSymbol: 'USD', assetDecimals: 2, amountMinor: '1' }),
  };
  for (const [name, call] of Object.entries(scenarios)) {
    await leg(call, false); // warm-up
    const without: number[] = [];
    const withKey: number[] = [];
    for (let r = 0; r < rounds; r++) {
      without.push(await leg(call, false));
      withKey.push(await leg(call, true));
    }
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const a = sum(without) / rounds;
    const b = sum(withKey) / rounds;
    console.log(`${backend} ${name}: without key ${a.toFixed(0)} req/s [${without.map((x) => x.toFixed(0)).join(' ')}], with key ${b.toFixed(0)} req/s [${withKey.map((x) => x.toFixed(0)).join(' ')}], with/without ${(b / a).toFixed(3)}`);
  }
  await h.close();
}
