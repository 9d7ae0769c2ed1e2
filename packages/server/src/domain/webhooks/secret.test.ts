import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newWebhookSecret, WebhookSecretSealer } from './secret.ts';

test('a webhook secret opens only under the same server secret and for its own endpoint', () => {
  const s = newWebhookSecret();
  assert.match(s, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.equal(Buffer.from(s.slice(6), 'base64').length, 32);
  const sealer = new WebhookSecretSealer('server-secret-0123456789abcdef0123');
  const row = { organizationId: 'org_a', endpointId: 'whk_1' };
  const sealed = sealer.seal(s, row);
  assert.ok(sealed.startsWith('w1.') && !sealed.includes(s.slice(6)));
  assert.equal(sealer.open(sealed, row), s);
  assert.throws(() => sealer.open(sealed, { organizationId: 'org_b', endpointId: 'whk_1' }));
  assert.throws(() => sealer.open(sealed, { organizationId: 'org_a', endpointId: 'whk_2' }));
  assert.throws(() => new WebhookSecretSealer('another-secret-0123456789abcdef01').open(sealed, row));
  assert.throws(() => sealer.open(`${sealed.slice(0, -4)}AAA=`, row));
});
