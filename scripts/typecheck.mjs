// Type-checks the Node packages (root tsconfig.json) and every workspace that has a tsconfig.json of
// its own (the browser apps: DOM types, JSX, bundler resolution), so `npm run typecheck` covers all.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const projects = ['tsconfig.json', ...readdirSync('packages').map((p) => join('packages', p, 'tsconfig.json')).filter((p) => existsSync(p))];
let failed = false;
for (const p of projects) {
  const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', p, '--noEmit'], { stdio: 'inherit' });
  if (r.status !== 0) { console.error(`typecheck failed: ${p}`); failed = true; }
}
process.exit(failed ? 1 : 0);
