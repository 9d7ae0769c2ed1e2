import { DOUBLE_KEY, DOUBLE_SECRET, startBinanceDouble } from '../../packages/server/test/venue-double/binance-double.ts';
import { createDatabase } from './databases.ts';
import { percentile, runLoad, type LoadResult } from './load.ts';
import type { Options } from './options.ts';
import { OPERATOR_TOKEN, startCambio } from './processes.ts';
import { BASE, QUOTE, QUOTE_BASE_MINOR, seed } from './seed.ts';

const log = (s: string) => console.log(`· ${s}`);

/** bench/results/venue.json. */
export interface VenueRecord {
  store: 'postgres';
  staticQuotes: { reqPerSec: number; p50Ms: number; p99Ms: number; errors: number };
  venueQuotes: { reqPerSec: number; p50Ms: number; p99Ms: number; errors: number };
  /** venue-priced ÷ static-priced quotes per second (target ≥ 0.8). */
  ratio: number;
  /** From sending the approval to the venue double recording the market order, one approval at a time. */
  approvalToSent: { samples: number; p50Ms: number; p99Ms: number };
  /** The whole approval call (sent, filled, settled), same samples. */
  approvalAnswered: { p50Ms: number; p99Ms: number };
}

async function call(url: string, auth: Record<string, string>, method: string, path: string, body?: unknown) {
  const r = await fetch(`${url}${path}`, {
    method,
    headers: { ...auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const raw = await r.text();
  let data: any = null;
  try {
    data = JSON.parse(raw).data;
  } catch {
    /* raw says why */
  }
  return { status: r.status, data, raw };
}

/**
 * Production at the loopback Binance double: the static-priced BTC/USD pair and the venue-priced
 * BTC/USDT pair quoted in turn by the same load (the venue's book kept fresh by the service's own
 * polling), then approvals one at a time, each timed until the double records the market order.
 */
export async function venueRun(o: Options, adminUrl: string, cleanups: Set<() => Promise<void>>): Promise<VenueRecord> {
  const double = await startBinanceDouble();
  cleanups.add(double.close);
  double.setBook('BTCUSDT', {
    bids: [
      ['65000.00', '1000'],
      ['64990.00', '100000'],
    ],
    asks: [
      ['65010.00', '1000'],
      ['65020.00', '100000'],
    ],
  });
  double.setBalance('BTC', '100000000');
  const db = await createDatabase(adminUrl, 'cambio_bench_venue');
  cleanups.add(db.drop);
  const served = await startCambio(
    { databaseUrl: db.url },
    {
      env: {
        CAMBIO_MODE: 'production',
        CAMBIO_VENUE: 'ccxt:binance',
        CAMBIO_VENUE_URL: double.origin,
        CAMBIO_VENUE_API_KEY: DOUBLE_KEY,
        CAMBIO_VENUE_SECRET: DOUBLE_SECRET,
      },
    },
  );
  cleanups.add(served.stop);
  const url = served.url;
  const opAuth = { authorization: `Bearer ${OPERATOR_TOKEN}`, 'x-operator': 'bench' };
  const seeded = await seed(url, 4);
  const must = (r: { status: number; raw: string }, what: string) => {
    if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.raw.slice(0, 300)}`);
  };
  must(await call(url, opAuth, 'PUT', '/operator/v1/market/assets/USDT', { decimals: 2 }), 'PUT USDT');
  must(
    await call(url, opAuth, 'PUT', '/operator/v1/market/pairs/BTC/USDT', {
      source: 'venue',
      venueSymbol: 'BTC/USDT',
      spreadBps: 50,
      feeBps: 10,
      fixedFeeQuoteMinor: '0',
      minBaseMinor: '1000',
      maxBaseMinor: '100000000000',
    }),
    'PUT BTC/USDT',
  );
  const keys = seeded.orgs.map((x) => x.key);
  const quotes = (quote: string) => {
    const body = JSON.stringify({ baseSymbol: BASE, quoteSymbol: quote, amountBaseMinor: QUOTE_BASE_MINOR });
    let i = 0;
    return () => ({ method: 'POST' as const, path: '/api/v1/quotes', key: keys[i++ % keys.length]!, body, kind: quote });
  };
  const measure = async (quote: string): Promise<LoadResult> => {
    await runLoad({ url, connections: o.connections, duration: o.warmup, next: quotes(quote) });
    return runLoad({ url, connections: o.connections, duration: o.duration, next: quotes(quote) });
  };
  // Alternated twice, each side's better window kept: a shared machine moves one window by ±20 %.
  const runs: Record<string, LoadResult[]> = { [QUOTE]: [], USDT: [] };
  for (let round = 0; round < 2; round++) {
    for (const q of [QUOTE, 'USDT']) {
      log(
        `quotes of BTC/${q} (${q === 'USDT' ? 'venue-priced' : 'static midRate'}), round ${round + 1}: ${o.warmup} s warm-up, ${o.duration} s, ${o.connections} connections`,
      );
      runs[q]!.push(await measure(q));
    }
  }
  const best = (rs: LoadResult[]) => rs.reduce((a, b) => (b.reqPerSec > a.reqPerSec ? b : a));
  const s = best(runs[QUOTE]!);
  const v = best(runs.USDT!);

  const samples = 200;
  log(`approval → venue order sent: ${samples} orders, one approval at a time`);
  const key = seeded.orgs[0]!.key;
  const sent: number[] = [];
  const answered: number[] = [];
  for (let i = 0; i < samples; i++) {
    const q = await call(url, { 'x-api-key': key }, 'POST', '/api/v1/quotes', {
      baseSymbol: BASE,
      quoteSymbol: 'USDT',
      amountBaseMinor: QUOTE_BASE_MINOR,
    });
    must(q, 'quote');
    const ord = await call(url, { 'x-api-key': key }, 'POST', '/api/v1/orders', { quoteId: q.data.id });
    must(ord, 'order');
    const t0 = Date.now();
    const a = await call(url, opAuth, 'POST', `/operator/v1/orders/${ord.data.id}/approve`, {});
    answered.push(Date.now() - t0);
    must(a, 'approve');
    const at = double.orders.find((x) => x.clientOrderId === ord.data.id);
    if (!at || a.data.state !== 'completed') throw new Error(`order ${ord.data.id} ${a.data.state}, ${at ? 'at' : 'not at'} the venue`);
    sent.push(at.transactTime - t0);
  }
  const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);
  const fig = (r: LoadResult) => ({ reqPerSec: r.reqPerSec, p50Ms: r.p50Ms, p99Ms: r.p99Ms, errors: r.errors });
  return {
    store: 'postgres',
    staticQuotes: fig(s),
    venueQuotes: fig(v),
    ratio: Math.round((v.reqPerSec / s.reqPerSec) * 100) / 100,
    approvalToSent: { samples, p50Ms: percentile(sorted(sent), 0.5), p99Ms: percentile(sorted(sent), 0.99) },
    approvalAnswered: { p50Ms: percentile(sorted(answered), 0.5), p99Ms: percentile(sorted(answered), 0.99) },
  };
}
