import { parseArgs } from 'node:util';
import { replayCommand, runBank, type Options } from './run.ts';

/**
 * `npm run verify:bank -- --seconds N --clients C --seed S [--kill-every MS] [--instances 2]`
 * A seeded bank workload against real Cambio processes on PostgreSQL, with a checker of the ledger's
 * invariants during and after the run. Exits 1 when any invariant was violated.
 */
const { values } = parseArgs({
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
    'log-level': { type: 'string', default: 'warn' },
  },
});

const int = (name: string, v: string | undefined, min: number) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) { console.error(`verify:bank: --${name} must be a whole number ≥ ${min} (got ${v})`); process.exit(2); }
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
  redisUrl: values['redis-url'] ?? (instances > 1 ? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' : null),
  keepDb: values['keep-db'] ?? false,
  logLevel: values['log-level'] ?? 'warn',
};

console.log(`verify:bank seed ${o.seed}: ${o.seconds} s, ${o.clients} clients, ${o.instances} instance(s)${o.killEveryMs ? `, SIGKILL every ~${o.killEveryMs} ms` : ''}${o.redisUrl ? `, rate limits in ${o.redisUrl}` : ''}`);
runBank(o, (l) => console.log(l)).then((r) => {
  if (r.violations.length) console.log(`replay with: ${replayCommand(o)}`);
  console.log(`${r.ops} operations, ${r.kills} kills, ${r.checks} checks, ${r.violations.length} violations`);
  process.exit(r.violations.length ? 1 : 0);
}, (e: unknown) => {
  console.error('verify:bank failed to run:', e);
  console.log(`replay with: ${replayCommand(o)}`);
  process.exit(2);
});
