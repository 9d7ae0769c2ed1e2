#!/usr/bin/env node
// The `cambio` command: runs the TypeScript sources through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../src/main.ts');
process.exitCode = await run(process.argv);
