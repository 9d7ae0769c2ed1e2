import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The Cambio processes under test: `node --import tsx packages/server/src/main.ts` on one database,
 * each on a port of its own (PORT=0, read back from the `listening on …` line). A kill is SIGKILL: no
 * shutdown hook runs, whatever was in flight is cut where it stood.
 */
export interface ClusterOptions {
  root: string;
  env: Record<string, string>;
  instances: number;
  onLog?: (instance: number, line: string) => void;
}

class Instance {
  proc: ChildProcess | null = null;
  url: string | null = null;
  starts = 0;
  /** Settles when a process has exited and its stdout and stderr are read to the end. */
  private readonly closed = new WeakMap<ChildProcess, Promise<void>>();
  constructor(
    readonly index: number,
    private readonly o: ClusterOptions,
  ) {}

  start(): Promise<void> {
    // A second process for one instance would orphan the first: nothing would ever kill it, and the test
    // file that spawned it would never end.
    if (this.proc) return Promise.reject(new Error(`instance ${this.index} is running already (pid ${this.proc.pid})`));
    this.starts++;
    return new Promise((resolve, reject) => {
      const p = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
        cwd: this.o.root,
        env: { ...process.env, ...this.o.env, PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.proc = p;
      this.closed.set(p, new Promise((r) => p.once('close', () => r())));
      let pending = '';
      let ready = false;
      const onData = (d: Buffer) => {
        pending += d.toString();
        let nl: number;
        while ((nl = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          this.o.onLog?.(this.index, line);
          const m = /listening on (http:\/\/\S+)/.exec(line);
          if (m && !ready) {
            ready = true;
            this.url = m[1]!;
            resolve();
          }
        }
      };
      p.stdout!.on('data', onData);
      p.stderr!.on('data', onData);
      p.once('exit', (code, signal) => {
        if (this.proc === p) {
          this.proc = null;
          this.url = null;
        }
        if (!ready) reject(new Error(`instance ${this.index} exited before listening (${code ?? signal})`));
      });
    });
  }

  /** SIGKILL, then wait for the exit so the port and the database connections are gone. */
  kill(): Promise<void> {
    const p = this.proc;
    this.url = null;
    if (!p || p.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      p.once('exit', () => resolve());
      p.kill('SIGKILL');
    });
  }

  /** SIGTERM: the clean shutdown path (finishes requests in flight). Resolves once its output is drained too. */
  stop(): Promise<void> {
    const p = this.proc;
    if (!p) return Promise.resolve();
    const closed = this.closed.get(p);
    if (p.exitCode !== null || p.signalCode !== null) return closed ?? Promise.resolve();
    const t = setTimeout(() => p.kill('SIGKILL'), 10_000);
    p.kill('SIGTERM');
    return (closed ?? Promise.resolve()).finally(() => clearTimeout(t));
  }
}

export class Cluster {
  readonly instances: Instance[];
  constructor(o: ClusterOptions) {
    this.instances = Array.from({ length: o.instances }, (_, i) => new Instance(i, o));
  }

  /** One after the other: the first applies the migrations, the others find them done. */
  async start(): Promise<void> {
    for (const i of this.instances) await i.start();
  }

  /** The address of a live instance (chosen by `pick`), or null while every one is down. */
  url(pick: (n: number) => number): string | null {
    const live = this.instances.filter((i) => i.url !== null);
    return live.length ? live[pick(live.length)]!.url : null;
  }

  async killAndRestart(index: number): Promise<void> {
    const i = this.instances[index]!;
    await i.kill();
    await i.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.instances.map((i) => i.stop()));
  }
  async killAll(): Promise<void> {
    await Promise.all(this.instances.map((i) => i.kill()));
  }
}
