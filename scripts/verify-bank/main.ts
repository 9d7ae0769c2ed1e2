import { parseArgs } from 'node:util';
import { replayCommand, runBank, Tally, type Options } from './run.ts';

/**
 * `npm run verify:bank -- --seconds N --clients C --seed S [--kill-every MS] [--instances 2]`
 * A seeded bank workload against real Cambio processes on PostgreSQL, with a checker of the ledger's
 * invariants during and after the run. Exits 0 with no violation, 1 with any, 2 when it could not run
 * (bad arguments, no database, a process that would not start, an interruption). Every ending prints
 * the summary line with what is known by then.
 */
const tally = new Tally();

function end(code: 0 | 1 | 2, reason?: string): never {
  if (reason) console.log(`verify:bank could not finish: ${reason}`);
  console.log(tally.summary());
  process.exit(code);
}

let values: ReturnType<typeof parse>['values'];
const parse = () =>
  parseArgs({
    options: {
      seconds: { type: 'string', default: '30' },
      clients: { type: 'string', default: '8' },
      seed: { type: 'string' },
      'kill-every': { type: 'string', default: '0' },
      instances: { type: 'string', default: '1' },
      'check-every': { type: 'string', default: '2000' },
      'database-url': { type: 'string' },
      'redis-url': { type: 'string' },
      'keep-db': { type: 'boolean', default: false },
      // `info`: every request writes its line, and the secret scan reads each one.
      'log-level': { type: 'string', default: 'info' },
      // production: the desk executes (docs/design/money-and-states.md); the run's simulated desk records fills and payouts.
      mode: { type: 'string', default: 'sandbox' },
      // production only: `desk` (staff record fills) or `ccxt` (a loopback Binance double executes, through CCXT).
      venue: { type: 'string', default: 'desk' },
    },
  });
try {
  ({ values } = parse());
} catch (e) {
  end(2, (e as Error).message);
}

const int = (name: string, v: string | undefined, min: number) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) end(2, `--${name} must be a whole number ≥ ${min} (got ${v})`);
  return n;
};

const instances = int('instances', values.instances, 1);
const o: Options = {
  seconds: int('seconds', values.seconds, 1),
  clients: int('clients', values.clients, 1),
  seed: values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : int('seed', values.seed, 0),
  killEveryMs: int('kill-every', values['kill-every'], 0),
  instances,
  checkEveryMs: int('check-every', values['check-every'], 100),
  adminUrl: values['database-url'] ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  redisUrl: values['redis-url'] ?? (instances > 1 ? (process.env.REDIS_URL ?? 'redis://127.0.0.1:6379') : null),
  keepDb: values['keep-db'] ?? false,
  logLevel: values['log-level'] ?? 'info',
  mode:
    values.mode === 'production'
      ? 'production'
      : values.mode === 'sandbox'
        ? 'sandbox'
        : end(2, `--mode must be sandbox or production (got ${values.mode})`),
  venue: values.venue === 'ccxt' ? 'ccxt' : values.venue === 'desk' ? 'desk' : end(2, `--venue must be desk or ccxt (got ${values.venue})`),
};
if (o.venue === 'ccxt' && o.mode !== 'production')
  end(2, '--venue ccxt needs --mode production (the sandbox trades at its simulated market)');

// Interrupted: the processes are killed, the summary says how far it got.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    const stop = tally.abort?.() ?? Promise.resolve();
    void stop.catch(() => undefined).finally(() => end(2, `interrupted by ${signal}; replay with: ${replayCommand(o)}`));
  });
}

console.log(
  `verify:bank seed ${o.seed}: ${o.mode}${o.venue === 'ccxt' ? ' at the Binance double (ccxt)' : ''}, ${o.seconds} s, ${o.clients} clients, ${o.instances} instance(s)${o.killEveryMs ? `, SIGKILL every ~${o.killEveryMs} ms` : ''}, log level ${o.logLevel}`,
);
void runBank(o, (l) => console.log(l), tally).then((t) => {
  if (t.failure) {
    console.log(`replay with: ${replayCommand(o)}`);
    end(2, t.failure);
  }
  if (t.violations.size) console.log(`replay with: ${replayCommand(o)}`);
  end(t.violations.size ? 1 : 0);
});
