import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import openapiTS, { astToString } from 'openapi-typescript';
import { makeHarness, type Harness } from './harness.ts';

const TSC = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));

/**
 * A client generated from the OpenAPI document: `openapi-typescript` turns
 * /api/v1/openapi.json into a `paths` type, and a small journey written against it (quote → order →
 * the order by id, with plain fetch) type-checks. The `@ts-expect-error` lines make the check cut
 * both ways: a body missing a required field, or a state the API does not have, must not compile.
 */
const JOURNEY = `
import type { paths } from './api';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type CreateQuote = Json<paths['/api/v1/quotes']['post']['requestBody']>;
type QuoteAnswer = Json<paths['/api/v1/quotes']['post']['responses']['201']>;
type CreateOrder = Json<paths['/api/v1/orders']['post']['requestBody']>;
type OrderAnswer = Json<paths['/api/v1/orders']['post']['responses']['201']>;
type GetOrder = paths['/api/v1/orders/{id}']['get'];
type OrderById = Json<GetOrder['responses']['200']>;
type Pairs = Json<paths['/api/v1/market/pairs']['get']['responses']['200']>;

async function call<T>(base: string, key: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const r = await fetch(base + path, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return (await r.json()) as T;
}

export async function journey(base: string, key: string): Promise<string> {
  const pairs = await call<Pairs>(base, key, 'GET', '/api/v1/market/pairs');
  const btc = pairs.data.find((p) => p.baseSymbol === 'BTC');
  const smallest: string = btc ? btc.minBaseMinor : '10000';
  const q: CreateQuote = { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: smallest };
  const quote = await call<QuoteAnswer>(base, key, 'POST', '/api/v1/quotes', q);
  const o: CreateOrder = { quoteId: quote.data.id };
  const created = await call<OrderAnswer>(base, key, 'POST', '/api/v1/orders', o);
  const id: GetOrder['parameters']['path']['id'] = created.data.id;
  const order = await call<OrderById>(base, key, 'GET', '/api/v1/orders/' + encodeURIComponent(id));
  const delivered: string = order.data.base.amountMinor;
  // @ts-expect-error a quote names both symbols
  const missing: CreateQuote = { baseSymbol: 'BTC', amountBaseMinor: '1' };
  // @ts-expect-error an order is never "done"
  const wrong: OrderById['data']['state'] = 'done';
  void missing; void wrong;
  return order.data.state + ' ' + delivered;
}
`;

describe('a client generated from the OpenAPI document with openapi-typescript', () => {
  let h: Harness;
  let dir: string;
  before(async () => {
    h = await makeHarness();
    dir = mkdtempSync(join(tmpdir(), 'cambio-openapi-'));
  });
  after(async () => {
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('generates a paths type in which quote → order → order by id type-checks', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const types = astToString(await openapiTS(doc));
    for (const path of ['/api/v1/quotes', '/api/v1/orders', '/api/v1/orders/{id}', '/api/v1/market/pairs', '/api/v1/ledger.csv']) {
      assert.ok(types.includes(`"${path}": {`), `${path} is in the generated paths`);
    }
    writeFileSync(join(dir, 'api.d.ts'), types);
    writeFileSync(join(dir, 'journey.ts'), JOURNEY);
    const r = spawnSync(
      process.execPath,
      [
        TSC,
        '--noEmit',
        '--strict',
        '--target',
        'es2022',
        '--module',
        'esnext',
        '--moduleResolution',
        'bundler',
        '--lib',
        'es2022,dom',
        join(dir, 'journey.ts'),
      ],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, `tsc:\n${r.stdout}${r.stderr}`);
  });
});
