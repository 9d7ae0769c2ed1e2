import { ServiceProcess } from '../service-process.ts';

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

/** `npm start`'s command: the processes verify-bank kills are the ones an operator runs. */
const NPM_START = ['--import', 'tsx', 'packages/server/src/main.ts'];

export class Cluster {
  readonly instances: ServiceProcess[];
  constructor(o: ClusterOptions) {
    this.instances = Array.from(
      { length: o.instances },
      (_, i) =>
        new ServiceProcess({
          root: o.root,
          env: o.env,
          args: () => NPM_START,
          name: `instance ${i}`,
          onLine: (line) => o.onLog?.(i, line),
        }),
    );
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
