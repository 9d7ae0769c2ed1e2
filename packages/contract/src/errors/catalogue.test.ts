import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { errorCatalogue, errorMessage, isErrorCode, LANGS, pickLang } from './catalogue.ts';
import { renderErrorDocs } from './render-docs.ts';
import { retryAdviceFor } from './retry.ts';

const root = new URL('../../../../', import.meta.url).pathname;

function sources(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (n === 'node_modules') continue;
    if (statSync(p).isDirectory()) sources(p, out);
    else if (n.endsWith('.ts') && !n.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

test('docs/errors.md is exactly what the catalogue renders (regenerate with scripts/gen-error-docs.ts)', () => {
  assert.equal(readFileSync(join(root, 'docs/errors.md'), 'utf8'), renderErrorDocs());
});

test('every code the docs mention is catalogued, and every catalogued code is documented', () => {
  const doc = readFileSync(join(root, 'docs/errors.md'), 'utf8');
  const mentioned = new Set([...doc.matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((m) => m[1]!));
  for (const code of mentioned) assert.ok(isErrorCode(code), `documented but not catalogued: ${code}`);
  for (const code of Object.keys(errorCatalogue)) assert.ok(mentioned.has(code), `catalogued but undocumented: ${code}`);
});

test('every code the server, SDK or CLI uses is catalogued', () => {
  const used = new Set<string>();
  for (const f of [
    ...sources(join(root, 'packages/server/src')),
    ...sources(join(root, 'packages/sdk/src')),
    ...sources(join(root, 'packages/cli/src')),
  ]) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/(?:DomainError|fail|sendError\([^,]+,[^,]+,)\s*\(?\s*'([a-z_]+\.[a-z_]+)'/g)) used.add(m[1]!);
  }
  assert.ok(used.size > 10, 'the scan found the codes in use');
  for (const code of used) assert.ok(isErrorCode(code), `used but not catalogued: ${code}`);
});

/**
 * Codes catalogued though nothing in the packages' src raises them, each with the reason it is kept.
 * Empty on purpose: a code nobody raises is drift (clients would branch on a code that never comes).
 */
const RESERVED: Record<string, string> = {};

test('every catalogued code is raised somewhere in packages/*/src (or listed as reserved, with why)', () => {
  const text = ['server', 'sdk', 'cli', 'contract']
    .flatMap((p) => sources(join(root, 'packages', p, 'src')))
    .filter((f) => !f.includes(join('contract', 'src', 'errors')))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  for (const code of Object.keys(errorCatalogue)) {
    if (Object.hasOwn(RESERVED, code)) continue;
    assert.ok(text.includes(`'${code}'`), `catalogued but never raised: ${code} (raise it, remove it, or list it in RESERVED with why)`);
  }
  for (const code of Object.keys(RESERVED)) assert.ok(isErrorCode(code), `reserved but not catalogued: ${code}`);
});

test('only internal.unexpected is a plain 500 shown to clients; every other 500 is internal (masked)', () => {
  for (const e of Object.values(errorCatalogue)) {
    if (e.status === 500 && e.code !== 'internal.unexpected') assert.ok(e.internal, `${e.code} would show an invariant failure to clients`);
  }
  assert.equal(errorCatalogue['internal.unexpected'].internal, false);
});

test('the spec codes are there with the spec statuses', () => {
  const spec: Record<string, number> = {
    'quotes.quote_below_executable_rate': 422,
    'orders.quote_expired': 410,
    'deposits.declaration_already_open': 409,
    'clients.client_cannot_operate': 403,
    'ledger.ledger_not_reconciled': 409,
  };
  for (const [code, status] of Object.entries(spec)) {
    assert.ok(isErrorCode(code));
    assert.equal(errorCatalogue[code].status, status);
  }
});

test('every code has status, retry advice per the spec table, and a message in every language', () => {
  for (const e of Object.values(errorCatalogue)) {
    assert.ok(e.status >= 400 && e.status <= 599);
    assert.equal(e.retry, retryAdviceFor(e.status));
    for (const l of LANGS) assert.ok(e.messages[l].length > 5, `${e.code} ${l}`);
    assert.notEqual(e.messages.en, e.messages.es, `${e.code} is not translated`);
  }
  assert.equal(retryAdviceFor(429), 'backoff');
  assert.equal(retryAdviceFor(500), 'once');
  assert.equal(retryAdviceFor(410), 'read_state_first');
  assert.equal(retryAdviceFor(422), 'never');
});

test('messages fill their placeholders; x-lang falls back to Spanish', () => {
  assert.equal(errorMessage('auth.scope_missing', 'en', { scope: 'portal:read' }), 'This credential lacks the permission portal:read.');
  assert.equal(pickLang('en'), 'en');
  assert.equal(pickLang('en-GB'), 'en');
  assert.equal(pickLang(undefined), 'es');
  assert.equal(pickLang('fr'), 'es');
});

test('without x-lang, Accept-Language decides: its supported language of highest weight; x-lang wins when sent', () => {
  assert.equal(pickLang(undefined, 'en'), 'en');
  assert.equal(pickLang(undefined, 'en-US,en;q=0.9'), 'en');
  assert.equal(pickLang(undefined, 'fr-FR, en;q=0.8, es;q=0.5'), 'en');
  assert.equal(pickLang(undefined, 'es;q=0.9, en;q=0.4'), 'es');
  assert.equal(pickLang(undefined, 'de, fr'), 'es');
  assert.equal(pickLang(undefined, 'en;q=0'), 'es');
  assert.equal(pickLang(undefined, '*'), 'es');
  assert.equal(pickLang('es', 'en'), 'es');
  assert.equal(pickLang('fr', 'en'), 'en', 'an unknown x-lang falls back to Accept-Language');
});
