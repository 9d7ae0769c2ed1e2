import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const root = new URL('../../../', import.meta.url).pathname;

/**
 * What a production host runs: `npm run build` compiles the service to JavaScript and `npm run start:prod`
 * starts it with plain node, no TypeScript loader. Built here from the current sources, then started as a
 * first production start on an empty store: it answers /health, serves the web apps' built files, writes
 * the operator token to a file only its user reads (and prints where) and has an empty market; SIGTERM
 * stops it cleanly.
 */
test('the built server starts with plain node in production and answers', async () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const command = pkg.scripts['start:prod'];
  assert.equal(command, 'exec node packages/server/dist/main.js');

  const built = spawnSync(process.execPath, ['packages/server/build.mjs'], { cwd: root, encoding: 'utf8' });
  assert.equal(built.status, 0, built.stderr);
  const bundle = readFileSync(join(root, 'packages/server/dist/main.js'), 'utf8');
  assert.doesNotMatch(bundle, /from ["'][^"']+\.ts["']/, 'the bundle imports no TypeScript file');

  // No tsx: the test runner's own loader must not leak into the child through NODE_OPTIONS.
  const tokenDir = mkdtempSync(join(tmpdir(), 'cambio-dist-token-'));
  const tokenFile = join(tokenDir, 'operator-token');
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'NODE_OPTIONS') env[k] = v;
  const child = spawn(process.execPath, [command.split(' ').at(-1)!], {
    cwd: root,
    env: {
      ...env,
      CAMBIO_MODE: 'production',
      CAMBIO_SECRET: 'dist-server-test-secret-0123456789abcdef',
      DATA_DIR: 'memory://',
      DATABASE_URL: '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      OPERATOR_TOKEN: '',
      CAMBIO_OPERATOR_TOKEN_FILE: tokenFile,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let out = '';
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString();
  });
  try {
    const printed = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (/listening on http:\/\/\S+/.test(out)) resolve(out);
      });
      void exited.then((code) => reject(new Error(`exited with ${code} before listening:\n${out}`)));
    });
    const url = /listening on (http:\/\/\S+)/.exec(printed)![1]!;
    assert.match(printed, new RegExp(`operator token written to ${tokenFile} \\(readable by this user only\\)`));
    const token = readFileSync(tokenFile, 'utf8').trim();
    assert.match(token, /^op_\S+$/);
    assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
    assert.ok(!printed.includes(token), 'the token itself is never printed');

    const health = await fetch(`${url}/health`);
    assert.equal(health.status, 200);
    assert.deepEqual(((await health.json()) as { data: unknown }).data, { status: 'ok', store: 'pglite' });

    for (const app of ['portal', 'desk']) {
      const page = await fetch(`${url}/${app}/`);
      assert.equal(page.status, 200, `/${app}/`);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(await page.text(), /<meta name="cambio-mode" content="production"/);
    }

    const assets = await fetch(`${url}/operator/v1/market/assets`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(assets.status, 200);
    assert.deepEqual(((await assets.json()) as { data: unknown }).data, [], 'production starts with an empty market');
  } finally {
    child.kill('SIGTERM');
    rmSync(tokenDir, { recursive: true, force: true });
  }
  assert.equal(await exited, 0, out);
});
