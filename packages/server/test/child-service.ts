import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster } from '../../../scripts/verify-bank/cluster.ts';
import { openDatabase, type OpenedDb } from '../src/store/db.ts';
import { createPgDatabase, type Backend } from './harness.ts';
import { pgliteImage, stampOpened } from './store-image.ts';

const root = new URL('../../../', import.meta.url).pathname;

/**
 * The service as `npm start` runs it (verify-bank's Cluster: a child process, SIGKILL for a crash) on a
 * store of its own: a fresh PGlite directory, or a fresh PostgreSQL database, both already migrated (the
 * run's image or template: store-image.ts). The first start seeds the demo; its key and the operator
 * token are read from what it prints.
 */
export async function childService(backend: Backend, env: Record<string, string> = {}, opts: { instances?: number } = {}) {
  const pg = backend === 'postgres' ? await createPgDatabase() : null;
  const dataDir = pg ? null : mkdtempSync(join(tmpdir(), 'cambio-kill-'));
  const lines: string[] = [];
  const cluster = new Cluster({
    root,
    instances: opts.instances ?? 1,
    onLog: (_i, line) => lines.push(line),
    env: {
      DATABASE_URL: pg?.url ?? '',
      DATA_DIR: dataDir ?? '',
      LOG_LEVEL: 'warn',
      CAMBIO_RATE_LIMIT_PER_MIN: '0',
      CAMBIO_SEED_DEMO: 'true',
      ...env,
    },
  });
  const at = (i: number) => {
    const x = cluster.instances[i];
    if (!x) throw new Error(`no instance ${i}`);
    return x;
  };
  // Production forbids the demo: the test then funds what it needs through the operator API (OPERATOR_TOKEN).
  const demo = (env.CAMBIO_SEED_DEMO ?? 'true') === 'true';
  try {
    if (dataDir) {
      const seeded = await openDatabase({ dataDir, image: await pgliteImage() });
      await stampOpened(seeded.db);
      await seeded.close();
    }
    await cluster.start();
  } catch (e) {
    // The caller never gets `cleanup`: nothing of this service may outlive the failed start.
    await cluster.killAll();
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
    lines,
    url: (i = 0) => {
      const u = cluster.instances[i]!.url;
      if (!u) throw new Error('the service is down');
      return u;
    },
    /** SIGKILL: no shutdown hook runs; resolves once the process is gone. */
    kill: (i = 0) => cluster.instances[i]!.kill(),
    start: (i = 0) => cluster.instances[i]!.start(),
    /** Instance `i` of several on one store (PostgreSQL), started with the same environment. */
    instance: (i: number) => ({ url: () => at(i).url, start: () => at(i).start(), kill: () => at(i).kill() }),
    /** SIGTERM, waiting for the clean exit. */
    stop: () => cluster.stop(),
    /** The store itself, opened by the test (PGlite: only while the service is stopped, one process per directory). */
    openStore: (): Promise<OpenedDb> => openDatabase({ databaseUrl: pg?.url, dataDir: dataDir ?? 'memory://' }),
    cleanup: async () => {
      await cluster.killAll();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      await pg?.drop();
    },
  };
}
export type ChildService = Awaited<ReturnType<typeof childService>>;

/** A JSON call to the running service; the envelope's `data` and the status. */
export async function callJson(s: ChildService, method: string, path: string, body?: unknown, auth: 'key' | 'operator' = 'key') {
  const r = await fetch(`${s.url()}${path}`, {
    method,
    headers: {
      ...(auth === 'key' ? { 'x-api-key': s.apiKey } : { authorization: `Bearer ${s.operatorToken}`, 'x-operator': 'kill@test' }),
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
