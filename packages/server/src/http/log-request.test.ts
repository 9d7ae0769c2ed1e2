import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskUrl } from './log-request.ts';

const KEY = 'cmb_live_k3jq9x0a1b2c.Yq7_-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab';
const OP = `op_${'A1b2C3d4'.repeat(4)}`; // 35 characters, as bootstrap generates

test('a credential of any length in a query string is masked, by name or by shape', () => {
  assert.equal(OP.length, 35);
  assert.equal(maskUrl(`/operator/v1/audit?access_token=${OP}`), '/operator/v1/audit?access_token=[redacted]');
  assert.equal(maskUrl('/api/v1/client?token=short'), '/api/v1/client?token=[redacted]');
  assert.equal(maskUrl('/api/v1/client?API-Key=x&limit=5'), '/api/v1/client?API-Key=[redacted]&limit=5');
  assert.equal(maskUrl('/api/v1/client?password=hunter2'), '/api/v1/client?password=[redacted]');
  assert.equal(maskUrl(`/api/v1/balances?q=${OP}`), '/api/v1/balances?q=[redacted]');
  assert.equal(maskUrl(`/api/v1/balances?k=${KEY}`), '/api/v1/balances?k=[redacted]');
  assert.equal(maskUrl('/api/v1/balances?whatever=cmb_live_abc.short'), '/api/v1/balances?whatever=[redacted]');
});

test('percent-encoded credentials and parameter names are decoded before the check', () => {
  const enc = KEY.replace(/\./g, '%2E').replace(/-/g, '%2D').replace(/_/g, '%5F');
  assert.equal(maskUrl(`/api/v1/balances?x=${enc}`), '/api/v1/balances?x=[redacted]');
  assert.equal(maskUrl(`/api/v1/balances?access%5Ftoken=abc`), '/api/v1/balances?access%5Ftoken=[redacted]');
  assert.equal(maskUrl(`/api/v1/balances?%61ccess_token=abc`), '/api/v1/balances?%61ccess_token=[redacted]');
  assert.equal(maskUrl(`/api/v1/orders/${encodeURIComponent(KEY)}`), '/api/v1/orders/[redacted]');
  assert.equal(maskUrl(`/api/v1/orders/${OP}`), '/api/v1/orders/[redacted]');
  assert.equal(maskUrl('/api/v1/x?bad=%E0%A4%A'), '/api/v1/x?bad=%E0%A4%A');
});

test('record ids and ordinary parameters stay readable', () => {
  const id = 'ord_mi9x2k3l0123456789abcdef01234567';
  assert.equal(maskUrl(`/api/v1/orders/${id}?state=pending_approval&page=2`), `/api/v1/orders/${id}?state=pending_approval&page=2`);
  assert.equal(maskUrl('/operator/v1/organizations/org_abc/members'), '/operator/v1/organizations/org_abc/members');
});
