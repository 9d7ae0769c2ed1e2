// Type-checks the Node packages (root tsconfig.json) and the browser packages (DOM types, JSX, bundler
// resolution): those tsconfig.web.json names are checked as one program, which loads React's and the
// DOM's types once and the web kit's sources once for both apps; any other workspace with a
// tsconfig.json of its own is checked on its own, so `npm run typecheck` covers all. The projects are
// checked at the same time (tsc uses one core each). `--lint`: `npm run lint` runs alongside them, so
// neither waits for the other (`npm test` runs all this beside the tests: scripts/test.mjs --checks).
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';

// --nice: the lowest CPU priority, inherited by tsc and eslint (scripts/test.mjs runs them beside the tests).
if (process.argv.includes('--nice')) setPriority(19);

const web = JSON.parse(readFileSync('tsconfig.web.json', 'utf8')).include;
const projects = [
  'tsconfig.json',
  'tsconfig.web.json',
  ...readdirSync('packages')
    .filter((p) => !web.includes(`packages/${p}/src`))
    .map((p) => join('packages', p, 'tsconfig.json'))
    .filter((p) => existsSync(p)),
];
const jobs = projects.map((p) => ({
  what: `typecheck ${p}`,
  cmd: process.execPath,
  args: ['node_modules/typescript/bin/tsc', '-p', p, '--noEmit'],
}));
if (process.argv.includes('--lint')) jobs.push({ what: 'lint', cmd: 'npm', args: ['run', '--silent', 'lint'] });

/** Runs one job with its output held back, then printed whole, so parallel jobs do not interleave lines. */
function run(job) {
  return new Promise((resolve) => {
    const p = spawn(job.cmd, job.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    p.stdout.on('data', (d) => out.push(d));
    p.stderr.on('data', (d) => out.push(d));
    p.on('error', (e) => {
      out.push(Buffer.from(`${e.message}\n`));
    });
    p.on('close', (code) => {
      process.stdout.write(Buffer.concat(out));
      if (code !== 0) console.error(`${job.what} failed`);
      resolve(code === 0);
    });
  });
}
const ok = await Promise.all(jobs.map(run));
process.exit(ok.every(Boolean) ? 0 : 1);
