import { parseArgs } from 'node:util';
import { COLD, FULL, GROWTH, SCENARIOS, type ScenarioName } from './scenarios.ts';

export interface Options {
  duration: number;
  warmup: number;
  connections: number;
  only: ScenarioName[];
  /** --log: entries the appender logs, the log's size for proofs, organizations in a snapshot. */
  log: { entries: number; logSize: number; orgs: number };
  pglite: boolean;
  pgbench: boolean;
  hello: boolean;
  orgs: number;
  profile: boolean;
  experimentPrepared: boolean;
  label: string;
  out: string;
  pgbenchClients: number;
  pgbenchScale: number;
  /** full: every scenario in its order; cold: orders first on a fresh database; growth: the same scenarios at each store size. */
  mode: 'full' | 'cold' | 'growth' | 'webhooks' | 'venue' | 'log';
  /** --growth: earlier quotes in the store at each step (cumulative). */
  sizes: number[];
  /** --growth: measured windows of each scenario at each size, in rounds; its figure is the median window's. */
  rounds: number;
  /** --webhooks: the endpoint counts of the workload runs (the backlog run always has 10). */
  endpoints: number[];
}

export const USAGE = `npm run bench -- [options]

  --cold                a fresh database, orders first, no earlier scenario (default out: bench/results/cold.json)
  --growth              cost per request against rows already stored: at each --sizes step, earlier quotes
                        (half of them accepted: orders, holds, journal entries, postings, events) are written
                        in bulk in SQL, then ${GROWTH.join(', ')} run (default out: bench/results/growth.json
                        and growth.svg; --duration 5 --warmup 2 unless given)
  --webhooks            events and webhooks at volume: orders and withdrawals through approval, 10 and 100 endpoints
                        registered, loopback receivers verifying every signature, with and without a slow
                        (5 s) and a failing (500) receiver (default out: bench/results/webhooks.json;
                        --orgs 10 unless given); then the delivery capacity: a backlog filled by orders-spread
                        while the healthy receivers hang, drained once they answer again
  --endpoints <a,b,…>   --webhooks: the workload runs' endpoint counts (default 10,100)
  --venue               production at the loopback Binance double (through CCXT): quotes of a venue-priced pair
                        against quotes of a static (midRate) pair in the same run, and approval → venue order
                        sent, one approval at a time (default out: bench/results/venue.json; PostgreSQL only)
  --log                 the journal log: appender throughput (--log-entries, default 50000), inclusion proof
                        p50/p99 at --log-size leaves (default 1000000) and a liabilities snapshot of
                        --log-orgs organizations × 2 assets (default 100000) (default out: bench/results/log.json)
  --sizes <a,b,…>       --growth's steps, earlier quotes in the store (default 10000,100000,1000000)
  --rounds <n>          --growth: each size measures every scenario in n rounds and takes the median
                        window (default 5: one 5 s window moves ±20 % on a shared 2-core machine)
  --duration <s>        measured seconds per scenario and per reference (default 10)
  --warmup <s>          warm-up seconds before each measured window, not counted (default 3)
  --connections <n>     autocannon connections (default 64)
  --only <scenario>     run only these scenarios (repeat, or comma-separated): ${SCENARIOS.join(', ')}
                        (default: ${FULL.join(', ')}; with --cold: ${COLD.join(', ')})
  --orgs <n>            organizations the spread scenarios rotate over (default 64)
  --no-pglite           skip the embedded store's run
  --no-pgbench          skip the pgbench references
  --no-hello            skip the Fastify hello-world reference
  --profile             run Cambio under node --cpu-prof and summarize each store's profile
  --experiment-prepared what-if: Cambio's PostgreSQL queries as named prepared statements (a preload
                        rewrites pg's query calls); labelled as an experiment in the JSON
  --label <text>        recorded in the JSON (e.g. "smoke: disturbed machine")
  --out <file>          where the JSON goes (default bench/results/latest.json)
  --pgbench-clients <n> pgbench clients (default 16; threads = number of CPUs)
  --pgbench-scale <n>   pgbench -i scale (default 10)

DATABASE_URL names the PostgreSQL server (default ${'postgres://postgres@127.0.0.1:5432/test'}); the bench creates
its own databases there and drops them at the end.`;

function positive(name: string, v: string | undefined, def: number, min = 1): number {
  if (v === undefined) return def;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number ≥ ${min} (got "${v}")`);
  return n;
}

export function parseOptions(argv: string[]): Options | null {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      only: { type: 'string', multiple: true },
      orgs: { type: 'string' },
      'no-pglite': { type: 'boolean' },
      'no-pgbench': { type: 'boolean' },
      'no-hello': { type: 'boolean' },
      profile: { type: 'boolean' },
      'experiment-prepared': { type: 'boolean' },
      label: { type: 'string' },
      out: { type: 'string' },
      'pgbench-clients': { type: 'string' },
      'pgbench-scale': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      cold: { type: 'boolean' },
      growth: { type: 'boolean' },
      webhooks: { type: 'boolean' },
      venue: { type: 'boolean' },
      log: { type: 'boolean' },
      'log-entries': { type: 'string' },
      'log-size': { type: 'string' },
      'log-orgs': { type: 'string' },
      sizes: { type: 'string' },
      rounds: { type: 'string' },
      endpoints: { type: 'string' },
    },
  });
  if (values.help) return null;
  const only = (values.only ?? [])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  if ([values.cold, values.growth, values.webhooks, values.venue, values.log].filter(Boolean).length > 1)
    throw new Error('--cold, --growth, --webhooks, --venue and --log are different runs: one at a time');
  const mode = values.cold
    ? 'cold'
    : values.growth
      ? 'growth'
      : values.webhooks
        ? 'webhooks'
        : values.venue
          ? 'venue'
          : values.log
            ? 'log'
            : 'full';
  const sizes = (values.sizes ?? '10000,100000,1000000')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .map((x) => Math.trunc(positive('sizes', x, 0, 1)));
  for (let i = 1; i < sizes.length; i++)
    if (sizes[i]! <= sizes[i - 1]!) throw new Error('--sizes must grow: each step adds rows to the one before');
  for (const s of only)
    if (!(SCENARIOS as readonly string[]).includes(s)) throw new Error(`unknown scenario "${s}"; one of ${SCENARIOS.join(', ')}`);
  return {
    duration: positive('duration', values.duration, mode === 'growth' ? 5 : 10),
    warmup: positive('warmup', values.warmup, mode === 'growth' ? 2 : 3, 0),
    connections: Math.trunc(positive('connections', values.connections, 64)),
    only: only.length ? (only as ScenarioName[]) : [...(mode === 'cold' ? COLD : mode === 'growth' ? GROWTH : FULL)],
    orgs: Math.trunc(positive('orgs', values.orgs, mode === 'webhooks' ? 10 : 64)),
    log: {
      entries: Math.trunc(positive('log-entries', values['log-entries'], 50_000)),
      logSize: Math.trunc(positive('log-size', values['log-size'], 1_000_000)),
      orgs: Math.trunc(positive('log-orgs', values['log-orgs'], 100_000)),
    },
    pglite: !values['no-pglite'],
    pgbench: !values['no-pgbench'],
    hello: !values['no-hello'],
    profile: values.profile ?? false,
    experimentPrepared: values['experiment-prepared'] ?? false,
    label: values.label ?? '',
    out: values.out ?? `bench/results/${mode === 'full' ? 'latest' : mode}.json`,
    pgbenchClients: Math.trunc(positive('pgbench-clients', values['pgbench-clients'], 16)),
    pgbenchScale: Math.trunc(positive('pgbench-scale', values['pgbench-scale'], 10)),
    mode,
    sizes,
    rounds: Math.trunc(positive('rounds', values.rounds, mode === 'growth' ? 5 : 1)),
    endpoints: (values.endpoints ?? '10,100')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)
      .map((x) => Math.trunc(positive('endpoints', x, 0, 1))),
  };
}
