import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const CLI = fileURLToPath(new URL('..', import.meta.url));

/**
 * The `cambio` command as one file, bundled from the repository's sources (the CLI's and, through the
 * @cambio/source condition, the SDK's) the way build.mjs bundles dist/cambio.js. A test that spawns the
 * command dozens of times runs this: bin/cambio.js runs the same sources through tsx, which costs every
 * process most of a second before it does anything (the verify tests still spawn bin/cambio.js).
 */
export async function cambioBundle(): Promise<{ file: string; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'cambio-cli-bundle-'));
  const file = join(dir, 'cambio.js');
  await build({
    stdin: {
      contents: "import { run } from './src/main.ts';\nprocess.exitCode = await run(process.argv);\n",
      resolveDir: CLI,
      sourcefile: 'cambio-entry.ts',
      loader: 'ts',
    },
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@cambio/source'],
    banner: { js: "import { createRequire as __cambioRequire } from 'node:module';\nconst require = __cambioRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
