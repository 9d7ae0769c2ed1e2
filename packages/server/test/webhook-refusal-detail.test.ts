import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { httpWebhookSender, type Resolve } from '../src/webhooks/http-sender.ts';
import { ALL_SCOPES, backends, makeHarness, SECRET, seedOrg, type Harness } from './harness.ts';

/** An internal DNS as a probe would map it: `vm` is loopback, the metadata name does not resolve, `db` is private. */
const internalDns: Resolve = async (host) => {
  if (host === 'vm') return [{ address: '127.0.0.1', family: 4 }];
  if (host === 'db.corp') return [{ address: '10.20.30.40', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

/** Nothing of what the name resolves to, nor why it does not: the address, its kind, the resolver's error. */
const LEAKS = /127\.0\.0\.1|10\.20\.30\.40|loopback|private|ENOTFOUND|EAI_|resolve|getaddrinfo|metadata|vm\b|db\.corp/i;

for (const backend of backends()) {
  describe(`a refused webhook url says only that the address is not allowed (${backend})`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend, env: { CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET }, deps: { webhookResolve: internalDns } });
    });
    after(async () => h?.close());

    test('at registration, in English and Spanish: no resolved address, no DNS error', async () => {
      const o = await seedOrg(h, { scopes: [...ALL_SCOPES, 'portal:webhooks'] });
      for (const url of [
        'http://vm/hook',
        'http://metadata.google.internal/computeMetadata/v1/',
        'https://db.corp/x',
        'http://127.0.0.1:9/x',
      ]) {
        for (const lang of ['en', 'es']) {
          const r = await h.call(o.key, 'POST', '/webhooks', { url }, { 'x-lang': lang });
          assert.equal(r.status, 422, r.raw);
          assert.equal(r.body.code, 'webhooks.url_refused');
          assert.doesNotMatch(r.raw, LEAKS, `${url} (${lang}): ${r.body.message}`);
          assert.match(r.body.message!, lang === 'en' ? /not allowed/ : /no está permitida/);
        }
      }
    });

    test("in a delivery's error too", async () => {
      const sender = httpWebhookSender({ allowPrivate: false, resolve: internalDns });
      const post = (url: string) => ({ url, endpointId: 'whk_x', headers: {}, body: '{}', timeoutMs: 5000 });
      for (const url of ['http://vm/hook', 'http://metadata.google.internal/', 'http://db.corp/']) {
        const r = await sender.post(post(url) as never);
        assert.equal(r.error, 'address not allowed');
      }
    });
  });
}
