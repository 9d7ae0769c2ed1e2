import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';

/**
 * The documentation a newcomer reads first: the README is a front door (the depth lives in docs/), every
 * relative link leads to a file of the repository (and to a heading of it, when it names one), nothing
 * points at documents the repository does not hold, the first curl example shows how to get English
 * (messages are Spanish without a language header), and every package asks for the same Node.
 */
const root = new URL('../../../', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(root, path), 'utf8');

function markdownUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) out.push(...markdownUnder(path));
    else if (name.endsWith('.md')) out.push(path);
  }
  return out;
}
const documents = ['README.md', 'bench/README.md', ...markdownUnder('docs')];

/** Markdown outside fenced code blocks, where a link is a link. */
const prose = (text: string) => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');

const lines = (path: string) => read(path).replace(/\n$/, '').split('\n').length;

test('the README is a front door of at most 300 lines, and bench/README.md at most 200', () => {
  assert.ok(lines('README.md') <= 300, `README.md has ${lines('README.md')} lines`);
  assert.ok(lines('bench/README.md') <= 200, `bench/README.md has ${lines('bench/README.md')} lines`);
});

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as hyphens. */
function anchors(doc: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(read(doc)).matchAll(/^#{1,6}\s+(.+?)\s*$/gm)) {
    const slug = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

test('every relative link of the README, bench/README.md and docs/ resolves to a file in the repository', () => {
  const broken: string[] = [];
  for (const doc of documents) {
    for (const m of prose(read(doc)).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [file, fragment] = target.split('#') as [string, string | undefined];
      const path = file === '' ? doc : relative(root, join(root, dirname(doc), decodeURIComponent(file)));
      if (path.startsWith('..') || !existsSync(join(root, path))) {
        broken.push(`${doc}: ${target}`);
        continue;
      }
      if (fragment !== undefined && path.endsWith('.md') && !anchors(path).has(fragment))
        broken.push(`${doc}: ${target} (no such heading)`);
    }
  }
  assert.deepEqual(broken, []);
});

/** The outside runtime document's name, spelt in two pieces so this file does not cite it itself. */
const outsideDocument = new RegExp(`${['CON', 'TRACT'].join('')}`);

test('no document cites the contract or the specification as if the repository held them', () => {
  const found: string[] = [];
  for (const doc of documents) {
    read(doc)
      .split('\n')
      .forEach((line, i) => {
        if (/client API specification/i.test(line) || new RegExp(`${outsideDocument.source}\\s*§`, 'i').test(line))
          found.push(`${doc}:${i + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(found, []);
});

function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) out.push(...sourcesUnder(path));
    else if (/\.(ts|tsx|mjs|js|json|md|css|html)$/.test(name)) out.push(path);
  }
  return out;
}

test('no source cites the outside runtime document: comments point at docs/', () => {
  const found = [...sourcesUnder('packages'), ...sourcesUnder('scripts')].filter((path) => outsideDocument.test(read(path)));
  assert.deepEqual(found, []);
});

test("the README's first curl example asks for a language (messages default to Spanish)", () => {
  const first = read('README.md')
    .split('\n')
    .find((line) => /^\s*curl\s/.test(line));
  assert.ok(first, 'the README has a curl example');
  assert.match(first, /-H ['"](x-lang|Accept-Language): *[a-z]{2}['"]/i);
});

test('every package.json asks for the same Node', () => {
  const manifests = ['package.json', ...readdirSync(join(root, 'packages')).map((p) => join('packages', p, 'package.json'))].filter((p) =>
    existsSync(join(root, p)),
  );
  const engines = Object.fromEntries(
    manifests.map((p) => [relative(root, join(root, p)), (JSON.parse(read(p)) as { engines?: { node?: string } }).engines?.node]),
  );
  const floor = engines['package.json'];
  assert.ok(floor, 'the root package.json names a Node version');
  for (const [path, node] of Object.entries(engines)) assert.equal(node, floor, `${path}: engines.node`);
});
