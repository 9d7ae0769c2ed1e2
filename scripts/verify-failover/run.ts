import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { checkOnce, stuck, TABLES, INVARIANT_NAMES } from '../verify-bank/checker.ts';
import { CLIENT_OPS, type OpKind } from '../verify-bank/client-ops.ts';
import { Cluster } from '../verify-bank/cluster.ts';
import { call } from '../verify-bank/http.ts';
import { History, type Created } from '../verify-bank/history.ts';
import { LogScan } from '../verify-bank/log-scan.ts';
import { OPERATOR_OPS } from '../verify-bank/operator-ops.ts';
import { Rng } from '../verify-bank/prng.ts';
import { seed } from '../verify-bank/seed.ts';
import { OPERATOR_TOKEN, SECRET, World } from '../verify-bank/world.ts';
import { NODE_PORTS, sleep, type Formation } from './formation.ts';

export interface Options {
  kills: number;
  loadBetweenMs: number;
  clients: number;
  seed: number;
  dir: string;
  keep: boolean;
}

/** What is known so far; the summary line is printed from it however the run ends. */
export class Tally {
  world: World | null = null;
  kills = 0;
  failovers = 0;
  checks = 0;
  lostAcknowledged = 0;
  recoveries: number[] = [];
  readonly violations = new Set<string>();
  failure: string | null = null;
  summary(): string {
    const max = this.recoveries.length ? Math.max(...this.recoveries) : 0;
    return `${this.world?.sent ?? 0} operations, ${this.failovers} failovers, ${this.checks} checks, ${this.violations.size} violations, ${this.lostAcknowledged} acknowledged operations lost, recovery max ${max.toFixed(1)} s`;
  }
}

/** The longest a recovery may take (from the SIGKILL until every instance is ready again). */
const RECOVERY_LIMIT_S = 30;
const root = fileURLToPath(new URL('../../', import.meta.url));

export async function runFailover(o: Options, print: (line: string) => void, tally: Tally, formation: Formation): Promise<void> {
  const report = (p: string) => {
    if (!tally.violations.has(p)) {
      tally.violations.add(p);
      print(`VIOLATION ${p}`);
    }
  };
  await formation.create();
  const url = formation.uri();
  print(`DATABASE_URL=${url}`);

  const rng = new Rng(o.seed);
  const history = new History();
  const logs = createWriteStream(join(formation.dir, 'cambio.log'), { flags: 'a' });
  const cluster = new Cluster({
    root,
    instances: 2,
    env: {
      DATABASE_URL: url,
      OPERATOR_TOKEN,
      CAMBIO_SECRET: SECRET,
      CAMBIO_SEED_DEMO: 'false',
      CAMBIO_MODE: 'sandbox',
      CAMBIO_QUOTE_TTL_MS: '5000',
      CAMBIO_DECLARATION_TTL_MS: '20000',
      CAMBIO_DESTINATION_COOLDOWN_MS: '0',
      REDIS_URL: '',
      CAMBIO_RATE_LIMIT_PER_MIN: '0',
      LOG_LEVEL: 'warn',
      DB_POOL_SIZE: '10',
    },
    onLog: (i, line) => logs.write(`[${i}] ${line}\n`),
  });
  try {
    await cluster.start();
    print(
      `cambio: 2 instances (${cluster.instances.map((i) => i.url).join(', ')}) on the formation; their output in ${join(formation.dir, 'cambio.log')}`,
    );
    const world = new World(cluster, history, o.seed, Date.now() + 3_600_000, new LogScan());
    tally.world = world;
    world.outages = { budgetMs: 60_000 };
    const doc = await call(cluster.instances[0]!.url!, 'GET', '/api/v1/openapi.json');
    if (doc.kind !== 'answered' || doc.status !== 200) throw new Error('no OpenAPI document');
    for (const [path, item] of Object.entries((doc.body as any).paths ?? {})) {
      for (const m of Object.keys(item as object)) world.endpoints.add(`${m.toUpperCase()} ${path}`);
    }
    const orgCount = Math.max(2, Math.ceil(o.clients / 2));
    await seed(world, rng.fork(1), orgCount);
    const usable = <T extends { needs: string[] }>(k: T) => k.needs.every((n) => world.endpoints.has(n));
    const clientOps = CLIENT_OPS.filter(usable);
    const operatorOps = OPERATOR_OPS.filter((k) => (k.mode ?? 'sandbox') === 'sandbox').filter(usable);
    print(`seeded ${orgCount} organizations; operation kinds: ${[...clientOps, ...operatorOps].map((k) => k.name).join(', ')}`);

    const weights = <K extends { name: string; weight: number }>(ks: K[]) => Object.fromEntries(ks.map((k) => [k.name, k.weight]));
    const clientLoop = async (i: number) => {
      const r = rng.fork(100 + i);
      const org = world.orgs[i % world.orgs.length]!;
      const byName = new Map(clientOps.map((k) => [k.name, k] as [string, OpKind]));
      while (world.running()) await byName.get(r.weighted(weights(clientOps)))!.run(world, r, org);
    };
    const operatorLoop = async (i: number) => {
      const r = rng.fork(10_000 + i);
      const byName = new Map(operatorOps.map((k) => [k.name, k]));
      while (world.running()) {
        await byName.get(r.weighted(weights(operatorOps)))!.run(world, r);
        await sleep(r.int(0, 20));
      }
    };
    const started = Date.now();
    const killer = async () => {
      try {
        // A killed postmaster is sometimes restarted by its own keeper before the monitor fails it over: it
        // is killed again until `kills` failovers happened (at most three times as many kills).
        for (let k = 1; tally.failovers < o.kills && k <= o.kills * 3; k++) {
          tally.kills = k;
          await sleep(o.loadBetweenMs);
          await formation.waitStable(180_000);
          const victim = await formation.killPrimary();
          const t0 = Date.now();
          print(
            `kill ${k}: the primary's postmaster (port ${victim.port}, pid ${victim.pid}) killed with SIGKILL at ${((t0 - started) / 1000).toFixed(1)} s`,
          );
          const recovered = await allReady(cluster, 60_000);
          const s = (Date.now() - t0) / 1000;
          tally.recoveries.push(s);
          if (!recovered) report(`kill ${k}: the instances were not all ready again within 60 s`);
          else if (s > RECOVERY_LIMIT_S) report(`kill ${k}: recovery took ${s.toFixed(1)} s (more than ${RECOVERY_LIMIT_S} s)`);
          const states = await formation.waitStable(180_000);
          const now = formation.primaryPortOf(states);
          if (now !== undefined && now !== victim.port) tally.failovers++;
          print(
            `kill ${k}: every instance ready again after ${s.toFixed(1)} s; primary now on ${now}${now === victim.port ? ' (the same node came back first: not a failover)' : ''}`,
          );
        }
      } finally {
        // The load goes on a little past the last recovery, so writes on the last new primary are checked too.
        (world as { deadline: number }).deadline = Date.now() + 10_000;
      }
    };
    const periodic = async () => {
      while (world.running()) {
        await sleep(5000);
        const c = await primaryClient();
        if (!c) continue; // between primaries: checked at the next round
        try {
          const r = await checkOnce(c, history, false);
          tally.checks += r.checks;
          r.problems.forEach(report);
        } catch {
          /* the primary was lost during the check: the next round checks again */
        } finally {
          await c.end().catch(() => undefined);
        }
      }
    };
    const operators = Math.max(2, Math.round(o.clients / 4));
    await Promise.all([
      ...Array.from({ length: o.clients }, (_, i) => clientLoop(i)),
      ...Array.from({ length: operators }, (_, i) => operatorLoop(i)),
      killer(),
      periodic(),
    ]);

    // Everything the kills interrupted is finished by the service (an approved order re-driven after its grace).
    await formation.waitStable(180_000);
    const checker = await primaryClient();
    if (!checker) throw new Error('no primary to check after the run');
    try {
      let left = await stuck(checker);
      const t0 = Date.now();
      while (left.length > 0 && Date.now() - t0 < 75_000) {
        await sleep(1000);
        left = await stuck(checker);
      }
      left.forEach((p) => history.violate(`half-done: ${p}`));
      const last = await checkOnce(checker, history, true);
      tally.checks += last.checks;
      last.problems.forEach(report);
      tally.lostAcknowledged = await acknowledgedLost(checker, history);
      tally.checks++;
      // What each client reads through the API is what the books say.
      const books = await checker.query(
        `select owner_id, asset_symbol, kind, balance::text as b from accounts where owner_id <> 'platform'`,
      );
      for (const org of world.orgs) {
        const r = await world.send(rng, 'final-read', 'GET', '/api/v1/balances', { key: org.key });
        if (r.kind !== 'answered' || r.status !== 200) {
          history.violate(`final GET /balances of ${org.id} failed`);
          continue;
        }
        for (const b of r.body.data as Array<{ assetSymbol: string; amountMinor: string; heldMinor?: string }>) {
          const want = (kind: string) =>
            books.rows.find((x) => x.owner_id === org.id && x.asset_symbol === b.assetSymbol && x.kind === kind)?.b ?? '0';
          if (b.amountMinor !== want('available') || (b.heldMinor !== undefined && b.heldMinor !== want('held')))
            history.violate(
              `${org.id} reads ${b.assetSymbol} ${b.amountMinor}/${b.heldMinor} but the books say ${want('available')}/${want('held')}`,
            );
        }
      }
      tally.checks++;
    } finally {
      await checker.end().catch(() => undefined);
    }
    if (tally.lostAcknowledged > 0) report(`${tally.lostAcknowledged} operations answered 2xx are not in the database`);
    print(`checked invariants: ${INVARIANT_NAMES.length} per snapshot`);
    for (const [op, m] of [...history.outcomes].sort())
      print(
        `  ${op.padEnd(22)} ${[...m]
          .sort()
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')}`,
      );
    print(
      `requests sent again after an outage: ${world.retries}; operations whose outcome stayed unknown (no answer within the retry budget, or the key still held): ${history.lost.length}`,
    );
    if (tally.failovers < o.kills) report(`${tally.kills} kills made ${tally.failovers} failovers, not ${o.kills}`);
    print(
      `recoveries (SIGKILL → every instance ready) after ${tally.kills} kills: ${tally.recoveries.map((s) => `${s.toFixed(1)} s`).join(', ')}`,
    );
    history.violations.forEach(report);
  } finally {
    await cluster.stop().catch(() => cluster.killAll());
    logs.end();
  }
}

/** Every instance answers GET /ready with 200 (its pool found the new primary), within `timeoutMs`. */
async function allReady(cluster: Cluster, timeoutMs: number): Promise<boolean> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    const answers = await Promise.all(
      cluster.instances.map((i) => (i.url ? call(i.url, 'GET', '/ready', { timeoutMs: 2000 }) : Promise.resolve(null))),
    );
    if (answers.every((a) => a?.kind === 'answered' && a.status === 200)) return true;
    await sleep(200);
  }
  return false;
}

/** A connection to whichever node is the primary now, or null while none is. */
async function primaryClient(): Promise<pg.Client | null> {
  for (const port of NODE_PORTS) {
    const c = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/cambio`, connectionTimeoutMillis: 3000 });
    c.on('error', () => undefined);
    try {
      await c.connect();
      const r = await c.query<{ r: boolean }>('select pg_is_in_recovery() as r');
      if (!r.rows[0]!.r) return c;
    } catch {
      /* down or starting */
    }
    await c.end().catch(() => undefined);
  }
  return null;
}

/** Operations answered 2xx that are not in the database: every announced id, and every decision answered 200. */
async function acknowledgedLost(c: pg.Client, history: History): Promise<number> {
  let lost = 0;
  for (const [kind, ids] of history.created as Map<Created, Map<string, string>>) {
    if (ids.size === 0) continue;
    const { table, id } = TABLES[kind];
    const found = new Set(
      (await c.query(`select ${id} as id from ${table} where ${id} = any($1)`, [[...ids.keys()]])).rows.map((r) => r.id),
    );
    for (const x of ids.keys()) if (!found.has(x)) lost++;
  }
  const decided = [...history.decisions.keys()];
  if (decided.length) {
    const state = new Map(
      (
        await c.query(`select id, state from orders where id = any($1) union all select id, state from withdrawals where id = any($1)`, [
          decided,
        ])
      ).rows.map((r) => [r.id, r.state]),
    );
    for (const [id, d] of history.decisions) {
      const s = state.get(id);
      if (d.rejected > 0 && s !== 'rejected') lost++;
      else if (d.approved > 0 && !['approved', 'completed', 'failed'].includes(s ?? 'missing')) lost++;
    }
  }
  return lost;
}
