// Builds the SDK into dist/: JavaScript and declarations of every file under src/ (new files are picked
// up by tsconfig.build.json's include), plus the declarations the SDK's types refer to: @cambio/contract's
// and, under them, @sinclair/typebox's (MIT, its licence copied along). The package then has no
// dependency at all and installs offline with no workspace around it; nothing of either is needed at
// run time (the SDK imports only their types). Run by `npm run build`, `npm pack` and the root postinstall.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(dist, { recursive: true, force: true });
for (const project of ['tsconfig.build.json', 'tsconfig.contract.json']) {
  execFileSync(process.execPath, [tsc, '-p', join(here, project)], { stdio: 'inherit' });
}

// build/cjs/index.js → the package's root
const typebox = join(dirname(createRequire(join(here, '..', 'contract', 'package.json')).resolve('@sinclair/typebox')), '..', '..');
const vendor = join(dist, 'vendor', 'typebox');
cpSync(join(typebox, 'build', 'esm'), vendor, { recursive: true, filter: (p) => statSync(p).isDirectory() || p.endsWith('.d.mts') });
cpSync(join(typebox, 'license'), join(vendor, 'license'));

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (p !== vendor) walk(p, out);
    } else if (name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}
const to = (from, target) => {
  const r = relative(dirname(from), target).split(sep).join('/');
  return r.startsWith('.') ? r : `./${r}`;
};

// Declarations keep the sources' `.ts` specifiers; published ones name the `.js` files beside them, and
// `@cambio/contract` and `@sinclair/typebox` become the copies in dist/.
for (const file of walk(dist)) {
  const text = readFileSync(file, 'utf8');
  const out = text
    .replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2')
    .replace(/(from\s+|import\()(['"])@cambio\/contract\2/g, `$1$2${to(file, join(dist, 'contract', 'index.js'))}$2`)
    .replace(/(from\s+|import\()(['"])@sinclair\/typebox\2/g, `$1$2${to(file, join(vendor, 'index.mjs'))}$2`);
  if (out !== text) writeFileSync(file, out);
}
