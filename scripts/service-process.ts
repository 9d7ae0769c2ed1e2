import { spawn, type ChildProcess } from 'node:child_process';

/**
 * One Cambio process under test, on a port of its own (PORT=0, read back from the `listening on …`
 * line): verify-bank's and verify-failover's instances run `npm start`'s command, the server's kill tests
 * a bundle of the same sources (packages/server/test/child-service.ts). A kill is SIGKILL: no shutdown
 * hook runs, whatever was in flight is cut where it stood.
 */
export interface ServiceProcessOptions {
  /** The working directory: the repository's root. */
  root: string;
  env: Record<string, string>;
  /** Node's arguments that start it, read at each start (a bundle may still be being built). */
  args: () => string[] | Promise<string[]>;
  /** How errors name it: "instance 2", "the service". */
  name: string;
  onLine?: (line: string) => void;
}

export class ServiceProcess {
  proc: ChildProcess | null = null;
  url: string | null = null;
  /** How many times it was started. */
  starts = 0;
  /** Settles when a process has exited and its stdout and stderr are read to the end. */
  readonly #closed = new WeakMap<ChildProcess, Promise<void>>();
  constructor(private readonly o: ServiceProcessOptions) {}

  async start(): Promise<void> {
    // A second process for one instance would orphan the first: nothing would ever kill it, and the test
    // file that spawned it would never end. Checked again after the arguments, which may take a while.
    const notRunning = () => {
      if (this.proc) throw new Error(`${this.o.name} is running already (pid ${this.proc.pid})`);
    };
    notRunning();
    const args = await this.o.args();
    notRunning();
    this.starts++;
    return new Promise((resolve, reject) => {
      const p = spawn(process.execPath, args, {
        cwd: this.o.root,
        env: { ...process.env, ...this.o.env, PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.proc = p;
      this.#closed.set(p, new Promise((r) => p.once('close', () => r())));
      let pending = '';
      let ready = false;
      const onData = (d: Buffer) => {
        pending += d.toString();
        let nl: number;
        while ((nl = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          this.o.onLine?.(line);
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
        if (!ready) reject(new Error(`${this.o.name} exited before listening (${code ?? signal})`));
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
    const closed = this.#closed.get(p);
    if (p.exitCode !== null || p.signalCode !== null) return closed ?? Promise.resolve();
    const t = setTimeout(() => p.kill('SIGKILL'), 10_000);
    p.kill('SIGTERM');
    return (closed ?? Promise.resolve()).finally(() => clearTimeout(t));
  }
}
