import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CambioError } from '@cambio/sdk';
import { describeError, fill, pickLang, translator, wordFor, type Catalogues } from '../src/i18n.ts';
import { pathBelow } from '../src/path.ts';

type Key = 'hello' | 'state.open' | 'count';
const CATALOGUES: Catalogues<Key> = {
  en: { hello: 'Hello {name}', 'state.open': 'Open', count: '{n} of {total}' },
  es: { hello: 'Hola {name}', 'state.open': 'Abierta', count: '{n} de {total}' },
};

test('a key is looked up in the chosen language and its placeholders filled', () => {
  assert.equal(translator(CATALOGUES, 'en')('hello', { name: 'Ana' }), 'Hello Ana');
  assert.equal(translator(CATALOGUES, 'es')('hello', { name: 'Ana' }), 'Hola Ana');
  assert.equal(translator(CATALOGUES, 'es')('count', { n: 2, total: 10 }), '2 de 10');
  assert.equal(fill('{a} and {b}', { a: 'x' }), 'x and {b}', 'a placeholder without a value stays');
  assert.equal(fill('{a}{a}', { a: 0 }), '00');
});

test('a key made at run time has a word only when the catalogue has one', () => {
  assert.equal(wordFor(CATALOGUES, 'es', 'state.open'), 'Abierta');
  assert.equal(wordFor(CATALOGUES, 'en', 'state.frozen'), undefined);
  assert.equal(wordFor(CATALOGUES, 'en', 'toString'), undefined, 'nothing inherited counts as a word');
});

test("the saved language wins, else the browser's Spanish, else English", () => {
  assert.equal(pickLang('es', 'en-US'), 'es');
  assert.equal(pickLang('en', 'es-AR'), 'en');
  assert.equal(pickLang(null, 'es-AR'), 'es');
  assert.equal(pickLang('fr', 'ES'), 'es');
  assert.equal(pickLang(null, 'pt-BR'), 'en');
  assert.equal(pickLang(null, ''), 'en');
});

test("a failed call is told in the server's words, else the catalogue's in the chosen language, else as unreachable", () => {
  const server = new CambioError({ status: 422, code: 'orders.quote_expired', message: 'The quote q_1 expired.', traceId: 't-1' });
  assert.deepEqual(describeError(server, 'es', 'offline'), {
    message: 'The quote q_1 expired.',
    code: 'orders.quote_expired',
    traceId: 't-1',
    status: 422,
  });
  const bare = new CambioError({ status: 401, code: 'auth.unauthenticated', message: 'HTTP 401', traceId: null });
  assert.deepEqual(describeError(bare, 'es', 'offline'), {
    message: 'La credencial no es válida.',
    code: 'auth.unauthenticated',
    traceId: null,
    status: 401,
  });
  assert.equal(describeError(bare, 'en', 'offline').message, 'The credential does not authenticate.');
  const network = new CambioError({ status: 0, code: 'sdk.network_error', message: 'fetch failed', traceId: null });
  assert.equal(describeError(network, 'en', 'The service cannot be reached.').message, 'The service cannot be reached.');
  assert.deepEqual(describeError(new Error('boom'), 'en', 'offline'), { message: 'boom', code: null, traceId: null, status: null });
});

test("a page address maps to the app's own path", () => {
  assert.equal(pathBelow('/desk', '/desk'), '/');
  assert.equal(pathBelow('/desk', '/desk/'), '/');
  assert.equal(pathBelow('/desk', '/desk/approvals/'), '/approvals');
  assert.equal(pathBelow('/desk', '/desk/organizations/o_1'), '/organizations/o_1');
  assert.equal(pathBelow('/portal', '/portal/api-keys'), '/api-keys');
  assert.equal(pathBelow('/desk', '/desktop'), '/');
  assert.equal(pathBelow('/portal', '/elsewhere'), '/');
});
