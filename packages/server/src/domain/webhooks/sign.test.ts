import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from './secret.ts';
import { webhookHeaders } from './sign.ts';

test('the headers verify with the standardwebhooks package, under each secret of a rotation, and not under another', () => {
  const [current, previous, other] = [newWebhookSecret(), newWebhookSecret(), newWebhookSecret()];
  const at = new Date();
  const body = JSON.stringify({ id: 'evt_x', type: 'order.created', data: { note: 'ñandú €' } });
  const h = webhookHeaders([current, previous], 'evt_x', at, body);
  assert.equal(h['webhook-signature']!.split(' ').length, 2);
  assert.equal(h['webhook-signature']!.split(' ')[0], new Webhook(current).sign('evt_x', at, body));
  for (const s of [current, previous]) assert.deepEqual(new Webhook(s).verify(body, h), JSON.parse(body));
  assert.throws(() => new Webhook(other).verify(body, h));
  assert.throws(() => new Webhook(current).verify(`${body} `, h));
});
