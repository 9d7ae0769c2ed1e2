import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root: servers start from there, as `npm start` does. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Served {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts a server as a separate process and waits for its `listening on http://…` line (PORT=0 picks
 * a free port). The last lines of its output are kept for the error message when it fails.
 */
export function startServer(args: string[], env: NodeJS.ProcessEnv, label: string, timeoutMs = 60_000): Promise<Served> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) tail.push(line);
    if (tail.length > 40) tail.splice(0, tail.length - 40);
  };
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(t);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${label} did not start within ${timeoutMs} ms:\n${tail.join('\n')}`));
    }, timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      keep(chunk);
      const m = /listening on (http:\/\/\S+)/.exec(chunk.toString());
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1]!.replace(/\/$/, ''), child, stop });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited (${code ?? signal}) before listening:\n${tail.join('\n')}`));
    });
  });
}

export const OPERATOR_TOKEN = 'bench-operator-token-0123456789abcdef';
const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';

/** Cambio itself, exactly as `npm start` runs it, on the store the env names. */
export function startCambio(
  store: { databaseUrl: string } | { dataDir: string },
  extra: { nodeArgs?: string[]; preload?: string[]; env?: Record<string, string> } = {},
): Promise<Served> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: 'databaseUrl' in store ? store.databaseUrl : '',
    DATA_DIR: 'dataDir' in store ? store.dataDir : './data',
    OPERATOR_TOKEN,
    CAMBIO_SECRET: SECRET,
    CAMBIO_MODE: 'sandbox',
    CAMBIO_SEED_DEMO: 'false',
    CAMBIO_RATE_LIMIT_PER_MIN: '0',
    LOG_LEVEL: 'warn',
    // Quotes made before the measured window must still be valid when accepted.
    CAMBIO_QUOTE_TTL_MS: '3600000',
    ...extra.env,
  };
  const preload = (extra.preload ?? []).flatMap((m) => ['--import', m]);
  return startServer([...(extra.nodeArgs ?? []), '--import', 'tsx', ...preload, 'packages/server/src/main.ts'], env, 'cambio');
}

/** The reference: a hello-world Fastify server on the same Node. */
export function startHelloWorld(): Promise<Served> {
  return startServer(['--import', 'tsx', 'bench/src/hello-server.ts'], { ...process.env, PORT: '0' }, 'hello-world');
}
