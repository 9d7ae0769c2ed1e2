import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

/** Debian's PostgreSQL 15 binaries, which pg_autoctl drives (initdb, pg_ctl, pg_basebackup, pg_rewind). */
export const PG_BIN = '/usr/lib/postgresql/15/bin';
export const MONITOR_PORT = 6000;
export const NODE_PORTS = [6001, 6002];
const MONITOR_URL = `postgres://postgres@127.0.0.1:${MONITOR_PORT}/pg_auto_failover`;

/**
 * The monitor's health checks, made fast so a lost primary is noticed within seconds (the defaults take
 * some 30 s): a check every second, a node unhealthy after 5 s without an answer.
 */
const FAST_HEALTH_CHECKS: Record<string, number> = {
  'pgautofailover.health_check_period': 1000,
  'pgautofailover.health_check_timeout': 2000,
  'pgautofailover.health_check_max_retries': 2,
  'pgautofailover.health_check_retry_delay': 1000,
  'pgautofailover.node_considered_unhealthy_timeout': 5000,
};

export interface NodeState {
  id: number;
  port: number;
  reported: string;
  goal: string;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What this machine lacks to run a formation, each with how to get it; empty when nothing is missing. */
export function missing(): string[] {
  const out: string[] = [];
  if (spawnSync('pg_autoctl', ['--version'], { encoding: 'utf8' }).status !== 0)
    out.push('pg_autoctl (as root: apt-get install -y postgresql-15-auto-failover pg-auto-failover-cli)');
  for (const b of ['pg_ctl', 'initdb', 'pg_basebackup'])
    if (!existsSync(join(PG_BIN, b))) out.push(`${join(PG_BIN, b)} (apt-get install -y postgresql-15)`);
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0)
    out.push('the `postgres` user (pg_autoctl refuses to run as root; the postgresql-15 package creates it)');
  return out;
}

/**
 * A pg_auto_failover formation on loopback: a monitor on 6000 and two nodes on 6001 and 6002, trust
 * authentication, no TLS, synchronous replication (pg_auto_failover's default with one standby), in a
 * directory of its own. `pg_autoctl` refuses to run as root: as root it runs as `postgres`.
 */
export class Formation {
  readonly #procs: ChildProcess[] = [];
  readonly #asPostgres = process.getuid?.() === 0;

  constructor(
    readonly dir: string,
    private readonly print: (line: string) => void,
  ) {}

  #command(args: string[]): [string, string[]] {
    const path = `${PG_BIN}:${process.env.PATH ?? ''}`;
    return this.#asPostgres
      ? ['runuser', ['-u', 'postgres', '--', 'env', `PATH=${path}`, 'pg_autoctl', ...args]]
      : ['env', [`PATH=${path}`, 'pg_autoctl', ...args]];
  }

  /** A pg_autoctl command that ends; its output goes to `log`. */
  #ctl(args: string[], log: string, timeoutMs = 120_000): string {
    const [cmd, argv] = this.#command(args);
    const r = spawnSync(cmd, argv, { cwd: this.dir, encoding: 'utf8', timeout: timeoutMs });
    const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
    createWriteStream(join(this.dir, log), { flags: 'a' }).end(out);
    if (r.status !== 0)
      throw new Error(
        `pg_autoctl ${args.slice(0, 2).join(' ')} failed (${r.status ?? r.signal ?? r.error?.message}); see ${join(this.dir, log)}`,
      );
    return r.stdout ?? '';
  }

  /** A pg_autoctl service that keeps running (the monitor, a node); stopped by `stop`. */
  #service(args: string[], log: string): void {
    const [cmd, argv] = this.#command(args);
    const out = createWriteStream(join(this.dir, log), { flags: 'a' });
    const p = spawn(cmd, argv, { cwd: this.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    p.stdout!.pipe(out);
    p.stderr!.pipe(out);
    this.#procs.push(p);
  }

  async create(): Promise<void> {
    const t0 = Date.now();
    rmSync(this.dir, { recursive: true, force: true });
    this.#forgetState();
    mkdirSync(this.dir, { recursive: true });
    if (this.#asPostgres) {
      const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
      const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
      chownSync(this.dir, uid, gid);
    }
    const common = ['--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl'];
    this.#ctl(['create', 'monitor', '--pgdata', join(this.dir, 'monitor'), '--pgport', String(MONITOR_PORT), ...common], 'monitor.log');
    this.#service(['run', '--pgdata', join(this.dir, 'monitor')], 'monitor.log');
    await this.#until('the monitor answers', 60_000, async () => {
      await this.#monitor('select 1');
      return true;
    });
    for (const [name, value] of Object.entries(FAST_HEALTH_CHECKS)) await this.#monitor(`alter system set ${name} = ${value}`);
    await this.#monitor('select pg_reload_conf()');
    const monitorUrl = `postgres://autoctl_node@127.0.0.1:${MONITOR_PORT}/pg_auto_failover?sslmode=disable`;
    for (const [i, port] of NODE_PORTS.entries()) {
      this.#service(
        [
          'create',
          'postgres',
          '--pgdata',
          join(this.dir, `node${i + 1}`),
          '--pgport',
          String(port),
          '--dbname',
          'cambio',
          '--monitor',
          monitorUrl,
          ...common,
          '--run',
        ],
        `node${i + 1}.log`,
      );
      if (i === 0)
        await this.#until('the first node is the primary', 120_000, async () =>
          (await this.states()).some((s) => s.port === port && ['single', 'wait_primary', 'primary'].includes(s.reported)),
        );
    }
    // The standby's base backup waits for a checkpoint: asking for one spares waiting for the next timed one.
    await this.waitStable(240_000, async () => {
      await this.#sql(this.primaryPortOf(await this.states()) ?? NODE_PORTS[0]!, 'checkpoint').catch(() => undefined);
    });
    this.print(
      `formation: monitor on ${MONITOR_PORT}, nodes on ${NODE_PORTS.join(' and ')}, primary/secondary after ${((Date.now() - t0) / 1000).toFixed(0)} s; synchronous_standby_names on the primary: ${await this.synchronousStandbys()}`,
    );
  }

  /** The multi-host URL pg_autoctl gives clients, with the `postgres` user (trust on loopback). */
  uri(): string {
    const u = this.#ctl(['show', 'uri', '--formation', 'default', '--pgdata', join(this.dir, 'monitor')], 'monitor.log')
      .trim()
      .split('\n')
      .pop()!
      .trim();
    return u.replace(/^(postgres(?:ql)?:\/\/)(?![^/]*@)/, '$1postgres@');
  }

  async states(): Promise<NodeState[]> {
    const rows = await this.#monitor('select nodeid, nodeport, reportedstate, goalstate from pgautofailover.node order by nodeid');
    return rows.map((r) => ({
      id: Number(r.nodeid),
      port: Number(r.nodeport),
      reported: String(r.reportedstate),
      goal: String(r.goalstate),
    }));
  }

  primaryPortOf(states: NodeState[]): number | undefined {
    return states.find((s) => s.reported === 'primary' || s.reported === 'wait_primary')?.port;
  }

  static stable(states: NodeState[]): boolean {
    const is = (st: string) => states.some((s) => s.reported === st && s.goal === st);
    return states.length === NODE_PORTS.length && is('primary') && is('secondary');
  }

  /** Waits until one node is primary and the other secondary (both reported and assigned): only then is a second loss safe. */
  async waitStable(timeoutMs: number, meanwhile?: () => Promise<void>): Promise<NodeState[]> {
    let last: NodeState[] = [];
    let n = 0;
    await this.#until('primary/secondary', timeoutMs, async () => {
      last = await this.states();
      if (meanwhile && n++ % 10 === 5) await meanwhile();
      return Formation.stable(last);
    });
    return last;
  }

  /** SIGKILL to the primary's postmaster: the first line of its postmaster.pid. */
  async killPrimary(): Promise<{ port: number; pid: number }> {
    const port = this.primaryPortOf(await this.states());
    if (port === undefined) throw new Error('no primary to kill');
    const file = join(this.dir, `node${NODE_PORTS.indexOf(port) + 1}`, 'postmaster.pid');
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    if (!Number.isInteger(pid) || pid <= 1) throw new Error(`no postmaster pid in ${file}`);
    process.kill(pid, 'SIGKILL');
    return { port, pid };
  }

  async synchronousStandbys(): Promise<string> {
    const port = this.primaryPortOf(await this.states());
    if (port === undefined) return '(no primary)';
    const r = await this.#sql(port, 'show synchronous_standby_names');
    return String(r[0]?.synchronous_standby_names ?? '');
  }

  /** Stops every node and the monitor (`pg_autoctl stop`), then anything of ours still running; removes the directory unless `keep`. */
  async stop(keep = false): Promise<void> {
    for (const n of ['node1', 'node2', 'monitor']) {
      if (existsSync(join(this.dir, n))) {
        try {
          this.#ctl(['stop', '--pgdata', join(this.dir, n)], 'stop.log', 60_000);
        } catch (e) {
          this.print(`stopping ${n}: ${(e as Error).message}`);
        }
      }
    }
    const exited = (p: ChildProcess) => p.exitCode !== null || p.signalCode !== null;
    const t0 = Date.now();
    while (this.#procs.some((p) => !exited(p)) && Date.now() - t0 < 30_000) await sleep(200);
    for (const p of this.#procs) if (!exited(p)) p.kill('SIGKILL');
    if (!keep) {
      rmSync(this.dir, { recursive: true, force: true });
      this.#forgetState();
    }
  }

  /** pg_autoctl keeps each node's state under the postgres user's home, by the node's directory: a new formation starts without it. */
  #forgetState(): void {
    const home = this.#asPostgres
      ? spawnSync('sh', ['-c', 'getent passwd postgres | cut -d: -f6'], { encoding: 'utf8' }).stdout.trim()
      : (process.env.HOME ?? '');
    if (!home) return;
    for (const base of ['.config/pg_autoctl', '.local/share/pg_autoctl'])
      rmSync(join(home, base, this.dir), { recursive: true, force: true });
  }

  async #monitor(text: string): Promise<Array<Record<string, unknown>>> {
    return this.#query(MONITOR_URL, text);
  }

  async #sql(port: number, text: string): Promise<Array<Record<string, unknown>>> {
    return this.#query(`postgres://postgres@127.0.0.1:${port}/cambio`, text);
  }

  async #query(url: string, text: string): Promise<Array<Record<string, unknown>>> {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000, query_timeout: 5000 });
    c.on('error', () => undefined);
    try {
      await c.connect();
      return (await c.query(text)).rows as Array<Record<string, unknown>>;
    } finally {
      await c.end().catch(() => undefined);
    }
  }

  async #until(what: string, timeoutMs: number, ok: () => Promise<boolean>): Promise<void> {
    const t0 = Date.now();
    let last = '';
    while (Date.now() - t0 < timeoutMs) {
      try {
        if (await ok()) return;
      } catch (e) {
        last = (e as Error).message;
      }
      await sleep(500);
    }
    throw new Error(`${what}: not reached within ${timeoutMs / 1000} s${last ? ` (${last})` : ''}; logs in ${this.dir}`);
  }
}

/** Whether something already listens on a port (another formation, another program). */
export async function portInUse(port: number): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    const done = (v: boolean) => {
      s.destroy();
      resolve(v);
    };
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
    s.setTimeout(1000, () => done(false));
  });
}
