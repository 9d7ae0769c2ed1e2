#!/usr/bin/env node
// The `cambio` command. Installed from the package: runs the bundle in dist/. In the repository (the
// sources are here): runs the TypeScript through tsx, with the SDK's sources too (the @cambio/source
// export condition), so an edit needs no rebuild.
import { existsSync } from 'node:fs';
import { register } from 'node:module';

const sources = new URL('../src/main.ts', import.meta.url);
if (existsSync(sources)) {
  register('./source-condition.js', import.meta.url);
  (await import('tsx/esm/api')).register();
  const { run } = await import(sources.href);
  process.exitCode = await run(process.argv);
} else {
  await import('../dist/cambio.js');
}
