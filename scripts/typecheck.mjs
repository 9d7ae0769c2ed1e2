// Type-checks the Node packages (root tsconfig.json) and every workspace that has a tsconfig.json of
// its own (the browser apps: DOM types, JSX, bundler resolution), so `npm run typecheck` covers all.
// The projects are checked at the same time (tsc uses one core each). `--lint`: `npm run lint` runs
// alongside them (what `npm test` does before the tests), so neither waits for the other.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const projects = [
  'tsconfig.json',
  ...readdirSync('packages')
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
