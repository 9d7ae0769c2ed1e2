// Builds the `cambio` command into one file, dist/cambio.js: the CLI, the SDK and commander bundled, so
// the packed tarball has no dependency and runs with `npx` in an empty directory, offline. Run by
// `npm run build`, `npm pack` and the root postinstall. In the repository bin/cambio.js runs the sources.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
rmSync(join(here, 'dist'), { recursive: true, force: true });
await build({
  stdin: {
    contents: "import { run } from './src/main.ts';\nprocess.exitCode = await run(process.argv);\n",
    resolveDir: here, sourcefile: 'cambio-entry.ts', loader: 'ts',
  },
  outfile: join(here, 'dist', 'cambio.js'),
  bundle: true, platform: 'node', format: 'esm', target: 'node20',
  // commander is CommonJS and requires Node's built-ins; an ES module has no `require` of its own.
  banner: { js: "import { createRequire as __cambioRequire } from 'node:module';\nconst require = __cambioRequire(import.meta.url);" },
  legalComments: 'inline',
  logLevel: 'warning',
});
