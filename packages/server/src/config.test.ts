import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

test('defaults are CONTRACT §1', () => {
  const c = loadConfig({});
  assert.equal(c.port, 8080);
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.dataDir, './data');
  assert.equal(c.mode, 'sandbox');
  assert.equal(c.seedDemo, true);
  assert.equal(c.keyTag, 'cmb');
  assert.equal(c.quoteTtlMs, 15000);
  assert.equal(c.declarationTtlMs, 3600000);
  assert.equal(c.destinationCooldownMs, 86400000);
  assert.equal(c.rateLimitPerMin, 600);
  assert.equal(c.databaseUrl, undefined);
  assert.equal(loadConfig({ CAMBIO_MODE: 'production' }).seedDemo, false);
});

test('every problem is reported at once, clearly', () => {
  assert.throws(() => loadConfig({ PORT: '99999', CAMBIO_QUOTE_TTL_MS: 'soon', DATABASE_URL: 'mysql://x', OPERATOR_TOKEN: 'short' }), (e: unknown) => {
    assert.ok(e instanceof ConfigError);
    assert.match(e.message, /PORT must be a whole number from 0 to 65535/);
    assert.match(e.message, /CAMBIO_QUOTE_TTL_MS/);
    assert.match(e.message, /DATABASE_URL must start with postgres/);
    assert.match(e.message, /OPERATOR_TOKEN must be at least 16/);
    return true;
  });
});
