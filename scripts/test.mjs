// Runs every *.test.ts under packages/ with node's test runner (Node 20 has no glob for --test).
// Usage: node scripts/test.mjs [--checks] [path-filter ...]
// --checks (what `npm test` runs): tsc and eslint as well (scripts/typecheck.mjs --lint), alongside the tests.
// CAMBIO_TEST_SEPARATE=1: every file in a process of its own (no groups; see below).
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}
const checks = process.argv.includes('--checks');
const filters = process.argv.slice(2).filter((a) => a !== '--checks');
const files = walk('packages', [])
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

// The longest files: most wait on processes of their own (the CLI, npm pack, the service as `npm start`
// runs it, killed and restarted); the fuzz test computes for minutes. Each runs alone, and first, longest
// first, so the last files to finish are short ones and both workers end together. A file done in a few
// seconds joins a group even if it starts processes: alone, starting its own test process would cost
// about as much as its tests.
const ALONE = [
  'server/test/fuzz.test.ts',
  'server/test/kill-log.test.ts',
  'server/test/first-start.test.ts',
  'server/test/kill-venue.test.ts',
  'server/test/kill-events.test.ts',
  'sdk/test/pack-install.test.ts',
  'server/test/walkthroughs.test.ts',
  'server/test/kill-webhooks-burst.test.ts',
  'server/test/kill-webhooks.test.ts',
  'cli/test/cli.test.ts',
  'server/test/data-dir-lock.test.ts',
  'cli/test/verify-mine.test.ts',
  'server/test/restart.test.ts',
  'server/test/signals.test.ts',
  'cli/test/verify.test.ts',
];
const aloneRank = (f) => ALONE.findIndex((a) => f.includes(a));

// Every other file shares a process with a few others: a test process spends seconds loading the
// service's TypeScript and compiling PGlite's WebAssembly before its first test, and that is paid once
// per group instead of once per file. Each file of a group is a suite of its own (its top-level hooks
// are that suite's hooks) and the files of a group run one after the other, as the tests of a file do.
const GROUP_SIZE = 16;
const BROWSER_GROUP_SIZE = 4;
const separate = process.env.CAMBIO_TEST_SEPARATE === '1';

function chunks(list, size) {
  if (separate) return list.map((f) => [f]);
  const n = Math.ceil(list.length / size);
  // Dealt round-robin: neighbours in the alphabet (often alike in cost) land in different groups.
  return Array.from({ length: n }, (_, i) => list.filter((_f, j) => j % n === i));
}

const alone = files
  .filter((f) => aloneRank(f) >= 0)
  .sort((a, b) => aloneRank(a) - aloneRank(b) || a.localeCompare(b))
  .map((f) => [f]);
const rest = files.filter((f) => aloneRank(f) < 0);
const browser = chunks(
  rest.filter((f) => f.includes('/browser/')),
  BROWSER_GROUP_SIZE,
);
const others = chunks(
  rest.filter((f) => !f.includes('/browser/')),
  GROUP_SIZE,
);
// Longest first: the four longest files, the browser groups (each file drives Chromium), the other
// files that run alone, then the groups.
const runs = [...alone.slice(0, 4), ...browser, ...alone.slice(4), ...others];

// The runner sorts the files it is given by path: each run is an entry file whose name keeps this order.
const dir = mkdtempSync(join(tmpdir(), 'cambio-test-groups-'));
const entries = runs.map((g, i) => {
  const imports = g.map(
    (f) =>
      `describe(${JSON.stringify(relative('packages', f))}, async () => { await import(${JSON.stringify(pathToFileURL(resolve(f)).href)}); });`,
  );
  const entry = join(dir, `${String(i + 1).padStart(3, '0')}.test.mjs`);
  writeFileSync(entry, `import { describe } from 'node:test';\n${imports.join('\n')}\n`);
  return entry;
});

// @cambio/source: workspace packages resolve to their TypeScript sources, so no rebuild is needed.
// One file per core, and at least two: node's default (cores - 1) would run one file at a time on two
// cores, and a file often waits (a child process, PostgreSQL, the browser) while the other computes.
const concurrency = Math.max(2, availableParallelism());
// The checks run beside the tests at the lowest CPU priority, not for a minute of their own before the
// first test: they take what the test files leave while they wait (a child process, PostgreSQL, the
// browser) and the last minute, when one file is left. At the same priority they slowed the kill and
// restart tests that run first. Their output is held back and printed after the tests'.
const checkRun = checks
  ? collect(spawn(process.execPath, ['scripts/typecheck.mjs', '--lint', '--nice'], { stdio: ['ignore', 'pipe', 'pipe'] }))
  : null;
// --test-force-exit: a file whose tests are over ends even if a handle (a child process a test forgot)
// still holds its event loop; without it the run waits for that file forever.
const tests = await collect(
  spawn(
    process.execPath,
    ['--conditions=@cambio/source', '--import', 'tsx', '--test', '--test-force-exit', `--test-concurrency=${concurrency}`, ...entries],
    { stdio: 'inherit' },
  ),
);
rmSync(dir, { recursive: true, force: true });
const checked = checkRun ? await checkRun : { code: 0, output: '' };
if (checkRun) {
  process.stdout.write(checked.output);
  console.log(checked.code === 0 ? '# typecheck and lint: passed' : '# typecheck and lint: FAILED (above)');
}
process.exit(tests.code !== 0 ? tests.code : checked.code);

/** A child's exit code (1 when it could not start or was killed) and, when piped, its output. */
function collect(child) {
  const out = [];
  child.stdout?.on('data', (d) => out.push(d));
  child.stderr?.on('data', (d) => out.push(d));
  return new Promise((done) => {
    child.on('error', (e) => out.push(Buffer.from(`${e.message}\n`)));
    child.on('close', (code) => done({ code: code ?? 1, output: Buffer.concat(out).toString() }));
  });
}
