// Builds the service into one JavaScript file, dist/main.js, so a host runs it with plain `node` and no
// TypeScript loader (tsx is a devDependency). The workspace packages it imports (@cambio/contract, whose
// export is TypeScript source) are bundled in; every npm dependency of the server stays a real import,
// resolved from node_modules at run time (PGlite, pg and pino load files of their own next to their code).
// Run by `npm run build` and the root postinstall; `npm start` still runs the sources.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
rmSync(join(here, 'dist'), { recursive: true, force: true });
await build({
  entryPoints: [join(here, 'src', 'main.ts')],
  outfile: join(here, 'dist', 'main.js'),
  bundle: true, platform: 'node', format: 'esm', target: 'node20',
  // A package name also covers its subpaths (`@fastify/rate-limit/store/RedisStore.js`).
  external: Object.keys(pkg.dependencies),
  sourcemap: true,
  legalComments: 'inline',
  logLevel: 'warning',
});
