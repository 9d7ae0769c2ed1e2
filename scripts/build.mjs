// Builds what must exist before the service starts or the tests run, in dependency order: the SDK
// (the web apps import it), then the CLI, the two web apps and the service as JavaScript
// (server/dist/main.js, what `npm run start:prod` runs). Run by `postinstall`, so `npm ci` alone
// leaves everything built. A workspace without a `build` script is skipped: the contract and the
// web kit have none, their TypeScript sources are what the apps' Vite builds read.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ORDER = ['contract', 'sdk', 'cli', 'web-kit', 'portal', 'desk', 'server'];
for (const name of ORDER) {
  const manifest = join('packages', name, 'package.json');
  if (!existsSync(manifest)) continue;
  const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
  if (!pkg.scripts?.build) continue;
  console.log(`build: ${pkg.name}`);
  const r = spawnSync('npm', ['run', 'build', '--silent', '--workspace', pkg.name], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
