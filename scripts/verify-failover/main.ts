import { parseArgs } from 'node:util';
import { Formation, MONITOR_PORT, missing, NODE_PORTS, portInUse } from './formation.ts';
import { runFailover, Tally, type Options } from './run.ts';

/**
 * `npm run verify:failover -- [--kills 3] [--load-between 20] [--clients 6] [--seed S] [--dir D] [--keep]`
 * A pg_auto_failover formation on loopback (monitor on 6000, nodes on 6001 and 6002), two Cambio
 * instances on its multi-host URL, the bank workload of verify:bank with Idempotency-Key retries, and the
 * primary's postmaster killed with SIGKILL until `--kills` failovers happened (each kill once the pair is
 * primary/secondary again).
 * Installs nothing: says what is missing. Exits 0 with no violation, 1 with any (a 500, a lost
 * acknowledged operation, a broken invariant, a recovery over 30 s), 2 when it could not run. The last
 * line is the summary.
 */
const tally = new Tally();
let formation: Formation | null = null;
let keep = false;

async function end(code: 0 | 1 | 2, reason?: string): Promise<never> {
  if (reason) console.log(`verify:failover could not finish: ${reason}`);
  if (formation) {
    console.log(keep ? `stopping the formation (its directory is kept: ${formation.dir})` : 'stopping the formation');
    await formation.stop(keep).catch((e: unknown) => console.log(`stopping the formation failed: ${String(e)}`));
  }
  console.log(tally.summary());
  process.exit(code);
}

const parse = () =>
  parseArgs({
    options: {
      kills: { type: 'string', default: '3' },
      'load-between': { type: 'string', default: '20' },
      clients: { type: 'string', default: '6' },
      seed: { type: 'string' },
      dir: { type: 'string', default: '/tmp/cambio-verify-failover' },
      keep: { type: 'boolean', default: false },
    },
  });
let parsed: ReturnType<typeof parse> | null = null;
try {
  parsed = parse();
} catch (e) {
  await end(2, (e as Error).message);
}
const values = parsed!.values;

const int = async (name: string, v: string | undefined, min: number) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) await end(2, `--${name} must be a whole number ≥ ${min} (got ${v})`);
  return n;
};
const o: Options = {
  kills: await int('kills', values.kills, 1),
  loadBetweenMs: (await int('load-between', values['load-between'], 1)) * 1000,
  clients: await int('clients', values.clients, 1),
  seed: values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : await int('seed', values.seed, 0),
  dir: values.dir ?? '/tmp/cambio-verify-failover',
  keep: values.keep ?? false,
};
keep = o.keep;

const lacking = missing();
if (lacking.length) await end(2, `missing on this machine:\n  - ${lacking.join('\n  - ')}`);
for (const port of [MONITOR_PORT, ...NODE_PORTS]) {
  if (await portInUse(port)) await end(2, `port ${port} is in use (a formation left running? \`pg_autoctl stop --pgdata ${o.dir}/…\`)`);
}

formation = new Formation(o.dir, (l) => console.log(l));
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void end(2, `interrupted by ${signal}`);
  });

console.log(
  `verify:failover seed ${o.seed}: ${o.kills} failovers by SIGKILL of the primary, ${o.loadBetweenMs / 1000} s of load before each, ${o.clients} clients, 2 instances, formation in ${o.dir}`,
);
try {
  await runFailover(o, (l) => console.log(l), tally, formation);
} catch (e) {
  await end(2, e instanceof Error ? e.message : String(e));
}
await end(tally.violations.size > 0 || tally.lostAcknowledged > 0 ? 1 : 0);
