import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ServiceProcess } from '../../../scripts/service-process.ts';
import { openDatabase, type OpenedDb } from '../src/store/db.ts';
import { deskTokenOver } from './desk-token.ts';
import { createPgDatabase, isDecision, type Backend } from './harness.ts';
import { pgliteImage, stampOpened } from './store-image.ts';

const root = new URL('../../../', import.meta.url).pathname;
const SERVER = fileURLToPath(new URL('../', import.meta.url));
const BUNDLES = join(SERVER, 'test', 'dist');

let bundle: Promise<string> | null = null;

/**
 * The service's sources as one file, bundled the way build.mjs bundles dist/main.js (the workspace
 * packages in, every npm dependency a real import), once per test process: `node --import tsx
 * src/main.ts` spends seconds in the TypeScript loader at every start, and these tests start the service
 * again and again. The file is named by its content in packages/server/test/dist/ (ignored by git and
 * lint), where the service finds node_modules and the web apps as it does from src/.
 */
function serviceBundle(): Promise<string> {
  bundle ??= (async () => {
    const pkg = JSON.parse(readFileSync(join(SERVER, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const out = await build({
      entryPoints: [join(SERVER, 'src', 'main.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: Object.keys(pkg.dependencies),
      write: false,
      logLevel: 'warning',
    });
    const code = out.outputFiles[0]!.contents;
    const name = `service-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
    const file = join(BUNDLES, name);
    if (!existsSync(file)) {
      mkdirSync(BUNDLES, { recursive: true });
      // Written whole under a name of its own, then renamed: another test process may start it meanwhile.
      const part = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.part`;
      writeFileSync(part, code);
      renameSync(part, file);
    }
    // Bundles of older sources, a day old: no test run still starts them.
    for (const f of readdirSync(BUNDLES)) {
      const p = join(BUNDLES, f);
      try {
        if (f !== name && f.startsWith('service-') && Date.now() - statSync(p).mtimeMs > 86_400_000) rmSync(p, { force: true });
      } catch {
        /* another process removed it first */
      }
    }
    return file;
  })();
  return bundle;
}

/**
 * The service as `npm start` runs it, from the bundle (a child process, SIGKILL for a crash), on a
 * store of its own: a fresh PGlite directory, or a fresh PostgreSQL database, both already migrated (the
 * run's image or template: store-image.ts). The first start seeds the demo; its key and the operator
 * token are read from what it prints.
 */
export async function childService(backend: Backend, env: Record<string, string> = {}, opts: { instances?: number } = {}) {
  const pg = backend === 'postgres' ? await createPgDatabase() : null;
  const dataDir = pg ? null : mkdtempSync(join(tmpdir(), 'cambio-kill-'));
  const lines: string[] = [];
  const instances = Array.from(
    { length: opts.instances ?? 1 },
    () =>
      new ServiceProcess({
        root,
        env: {
          DATABASE_URL: pg?.url ?? '',
          DATA_DIR: dataDir ?? '',
          LOG_LEVEL: 'warn',
          CAMBIO_RATE_LIMIT_PER_MIN: '0',
          CAMBIO_SEED_DEMO: 'true',
          ...env,
        },
        args: async () => [await serviceBundle()],
        name: 'the service',
        onLine: (line) => lines.push(line),
      }),
  );
  const at = (i: number) => {
    const x = instances[i];
    if (!x) throw new Error(`no instance ${i}`);
    return x;
  };
  const killAll = () => Promise.all(instances.map((x) => x.kill()));
  // Production forbids the demo: the test then funds what it needs through the operator API (OPERATOR_TOKEN).
  const demo = (env.CAMBIO_SEED_DEMO ?? 'true') === 'true';
  try {
    if (dataDir) {
      const seeded = await openDatabase({ dataDir, image: await pgliteImage() });
      await stampOpened(seeded.db);
      await seeded.close();
    }
    // One after the other: the first seeds the demo, the others find it done.
    for (const x of instances) await x.start();
  } catch (e) {
    // The caller never gets `cleanup`: nothing of this service may outlive the failed start.
    await killAll();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await pg?.drop();
    throw e;
  }
  const printed = (re: RegExp) => {
    for (const l of lines) {
      const m = re.exec(l);
      if (m) return m[1]!;
    }
    throw new Error(`not printed: ${re} in\n${lines.join('\n')}`);
  };
  return {
    apiKey: demo ? printed(/demo API key \(shown once\): (\S+)/) : '',
    operatorToken: env.OPERATOR_TOKEN ?? printed(/operator token \(shown once\): (\S+)/),
    /** Production: the bootstrap token decides nothing; callJson makes decisions with a staff admin's token. */
    production: env.CAMBIO_MODE === 'production',
    lines,
    url: (i = 0) => {
      const u = at(i).url;
      if (!u) throw new Error('the service is down');
      return u;
    },
    /** SIGKILL: no shutdown hook runs; resolves once the process is gone. */
    kill: (i = 0) => at(i).kill(),
    start: (i = 0) => at(i).start(),
    /** Instance `i` of several on one store (PostgreSQL), started with the same environment. */
    instance: (i: number) => ({ url: () => at(i).url, start: () => at(i).start(), kill: () => at(i).kill() }),
    /** SIGTERM, waiting for the clean exit. */
    stop: async () => {
      await Promise.all(instances.map((x) => x.stop()));
    },
    /** PostgreSQL: the service's database (a fresh one of its own). */
    databaseUrl: pg?.url,
    /** The store itself, opened by the test (PGlite: only while the service is stopped, one process per directory). */
    openStore: (): Promise<OpenedDb> => openDatabase({ databaseUrl: pg?.url, dataDir: dataDir ?? 'memory://' }),
    cleanup: async () => {
      await killAll();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      await pg?.drop();
    },
  };
}
export type ChildService = Awaited<ReturnType<typeof childService>>;

/** A JSON call to the running service; the envelope's `data` and the status. */
/** Each service's staff admin token, made at its first decision (keyed by its printed lines, shared by copies of it). */
const deskTokens = new WeakMap<string[], Promise<string>>();

export async function callJson(s: ChildService, method: string, path: string, body?: unknown, auth: 'key' | 'operator' = 'key') {
  const desk = auth === 'operator' && s.production && isDecision(method, path.replace(/^\/operator\/v1/, ''));
  if (desk && !deskTokens.has(s.lines)) deskTokens.set(s.lines, deskTokenOver(s.url(), s.operatorToken));
  const r = await fetch(`${s.url()}${path}`, {
    method,
    headers: {
      ...(auth === 'key'
        ? { 'x-api-key': s.apiKey }
        : desk
          ? { authorization: `Bearer ${await deskTokens.get(s.lines)!}` }
          : { authorization: `Bearer ${s.operatorToken}`, 'x-operator': 'kill@test' }),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON: the caller sees the status and raw text */
  }
  return { status: r.status, data: json?.data, raw: text };
}

/**
 * Polls `check` until it returns something other than undefined; throws after `withinMs`, so a wait that
 * never ends fails its test instead of keeping the test file's process alive.
 */
export async function until<T>(check: () => Promise<T | undefined>, everyMs = 100, withinMs = 90_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`still waiting after ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
