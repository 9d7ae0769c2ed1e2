// Runs every *.test.ts under packages/ with node's test runner (Node 20 has no glob for --test).
// Usage: node scripts/test.mjs [path-filter ...]
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}
const filters = process.argv.slice(2);
const files = walk('packages', []).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))).sort();
if (files.length === 0) { console.error('no test files matched'); process.exit(1); }
// @cambio/source: workspace packages resolve to their TypeScript sources, so no rebuild is needed.
// One file per core, and at least two: node's default (cores - 1) would run one file at a time on two
// cores, and a file often waits (a child process, PostgreSQL, the browser) while the other computes.
const concurrency = Math.max(2, availableParallelism());
// --test-force-exit: a file whose tests are over ends even if a handle (a child process a test forgot)
// still holds its event loop; without it the run waits for that file forever.
const r = spawnSync(process.execPath, ['--conditions=@cambio/source', '--import', 'tsx', '--test', '--test-force-exit', `--test-concurrency=${concurrency}`, ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
