import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { available, held, listAssets, makeHarness, seedOrg, type Harness, type SeededOrg } from '../../server/test/harness.ts';

// The SDK and the CLI as a stranger gets them: `npm pack` (which builds them), installed offline into
// an empty project outside the repository, run by plain node with none of the repository's settings.
const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');

/** Only what npm and node need: no NODE_OPTIONS (the repository's @cambio/source condition), no npm_config_workspace. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() };
  if (process.env.npm_config_cache) env.npm_config_cache = process.env.npm_config_cache;
  return { ...env, ...extra };
}

const JOURNEY = `import { Cambio, Money } from '@cambio/sdk';
const c = new Cambio({ apiKey: process.env.KEY, baseUrl: process.env.BASE, lang: 'en' });
const q = await c.quotes.create({ baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: 1000000n });
const o = await c.orders.create({ quoteId: q.id });
console.log(JSON.stringify({
  quote: Money.from(q.quote).toString(), bigint: typeof o.data.base.amountMinor,
  order: { id: o.data.id, quoteId: o.data.quoteId, state: o.data.state, outcome: o.outcome },
}));
`;

// The declarations are checked as a strict consumer would, without skipLibCheck.
const TYPED = `import { Cambio, CambioError, type Order, type Quote } from '@cambio/sdk';
export async function journey(c: Cambio): Promise<[Quote, Order]> {
  const q = await c.quotes.create({ baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: 1n });
  const base: bigint = q.base.amountMinor;
  const o = await c.orders.create({ quoteId: q.id });
  const state: 'pending_approval' | 'approved' | 'completed' | 'rejected' | 'failed' | 'cancelled' = o.data.state;
  void base; void state; void CambioError;
  return [q, o.data];
}
`;
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    lib: ['ES2022', 'DOM'],
    types: [],
  },
  include: ['typed.ts'],
};

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else out.push(p);
  }
  return out;
}

describe('the packed SDK and CLI, installed into an empty project outside the repository', () => {
  let h: Harness;
  let base: string;
  let org: SeededOrg;
  let dir: string;
  let sdkTgz: string;
  let cliTgz: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cambio-pack-'));
    const packed = await run('npm', ['pack', '--silent', '--json', '-w', '@cambio/sdk', '-w', '@cambio/cli', '--pack-destination', dir], {
      cwd: REPO,
      env: cleanEnv(),
      maxBuffer: 1 << 24,
    });
    const names = JSON.parse(packed.stdout) as Array<{ name: string; filename: string }>;
    sdkTgz = join(dir, names.find((n) => n.name === '@cambio/sdk')!.filename);
    cliTgz = join(dir, names.find((n) => n.name === '@cambio/cli')!.filename);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'stranger', version: '1.0.0', private: true, type: 'module' }));
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', sdkTgz], { cwd: dir, env: cleanEnv() });

    // npx installs the CLI afresh for each command (slow on a loaded machine): the quote must outlive that.
    h = await makeHarness({ env: { CAMBIO_QUOTE_TTL_MS: '600000' } });
    base = await h.app.listen({ port: 0, host: '127.0.0.1' });
    await listAssets(h, { USD: 2, BTC: 8 });
    const pair = await h.op('PUT', '/market/pairs/BTC/USD', {
      midRate: '65000.00',
      spreadBps: 100,
      feeBps: 10,
      fixedFeeQuoteMinor: '0',
      minBaseMinor: '10000',
      maxBaseMinor: '1000000000000',
    });
    assert.equal(pair.status, 200, pair.raw);
    org = await seedOrg(h, { balances: { BTC: 5_000_000n } });
  });
  after(async () => {
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the SDK tarball has no dependency, and ships JavaScript with declarations', () => {
    const manifest = JSON.parse(readFileSync(join(dir, 'node_modules', '@cambio', 'sdk', 'package.json'), 'utf8'));
    assert.equal(manifest.dependencies, undefined);
    assert.deepEqual(manifest.exports['.'], {
      '@cambio/source': './src/index.ts',
      types: './dist/index.d.ts',
      import: './dist/index.js',
      default: './dist/index.js',
    });
    const installed = files(join(dir, 'node_modules', '@cambio', 'sdk'));
    assert.ok(!installed.some((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')), 'no TypeScript sources');
    assert.deepEqual(readdirSync(join(dir, 'node_modules')).sort(), ['.package-lock.json', '@cambio']);
  });

  test('a quote → order journey with plain node against a live service', async () => {
    writeFileSync(join(dir, 'journey.mjs'), JOURNEY);
    const out = await run(process.execPath, ['journey.mjs'], { cwd: dir, env: cleanEnv({ KEY: org.key, BASE: base }) });
    const r = JSON.parse(out.stdout);
    // 0.01 BTC at floor(65000 × 0.99 × 100) = 6435000 USD minor per BTC: 64350 USD minor.
    assert.equal(r.quote, '643.50 USD');
    assert.equal(r.bigint, 'bigint');
    assert.equal(r.order.state, 'pending_approval');
    assert.equal(r.order.outcome, 'created');
    assert.equal(await held(h, org.key, 'BTC'), 1_000_000n);
    assert.equal(await available(h, org.key, 'BTC'), 4_000_000n);
  });

  test('its declarations type-check a strict consumer (no skipLibCheck)', async () => {
    writeFileSync(join(dir, 'typed.ts'), TYPED);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const r = await run(process.execPath, [TSC, '-p', dir], { cwd: dir, env: cleanEnv() }).catch((e: { stdout: string }) => ({
      stdout: e.stdout,
      failed: true,
    }));
    assert.ok(!('failed' in r), r.stdout);
  });

  test('it bundles for a browser: no Node built-in is imported', async () => {
    const entry = join(dir, 'node_modules', '@cambio', 'sdk', 'dist', 'index.js');
    const out = await build({ entryPoints: [entry], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent' });
    assert.equal(out.errors.length, 0);
    assert.doesNotMatch(out.outputFiles[0]!.text, /\bnode:|require\(/);
  });

  test('the CLI tarball runs with npx in an empty directory: quote, then order', async () => {
    const env = cleanEnv({ CAMBIO_BASE_URL: base, CAMBIO_API_KEY: org.key, XDG_CONFIG_HOME: join(dir, 'no-config') });
    const empty = mkdtempSync(join(dir, 'empty-'));
    const npx = (...args: string[]) => run('npx', ['--offline', '--yes', '--package', cliTgz, 'cambio', ...args], { cwd: empty, env });
    const q = JSON.parse((await npx('quote', 'BTC', 'USD', '--sell', '0.02', '--json')).stdout);
    assert.equal(q.quote.amountMinor, '128700');
    const o = JSON.parse((await npx('order', q.id, '--json')).stdout);
    assert.equal(o.state, 'pending_approval');
    assert.equal(o.quoteId, q.id);
    assert.equal(await held(h, org.key, 'BTC'), 3_000_000n);
  });
});
