import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { ConfigError, loadConfig, loadDotEnv } from './config.ts';

const SECRET = 'config-test-secret-0123456789abcdefghij';
const refusal = (env: Record<string, string>, pattern: RegExp) =>
  assert.throws(
    () => loadConfig(env),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, pattern);
      return true;
    },
  );

test('defaults are docs/production.md', () => {
  const c = loadConfig({});
  assert.equal(c.port, 8080);
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.dataDir, './data');
  assert.equal(c.mode, 'sandbox');
  assert.equal(c.seedDemo, true);
  assert.equal(c.keyTag, 'cmb');
  assert.equal(c.quoteTtlMs, 15000);
  assert.equal(c.declarationTtlMs, 3600000);
  assert.equal(c.destinationCooldownMs, 60000, 'a sandbox destination cools down for a minute (docs/production.md)');
  assert.equal(c.rateLimitPerMin, 600);
  assert.equal(c.databaseUrl, undefined);
  assert.equal(c.logLevel, 'info');
  assert.equal(c.webhookLeaseMs, 60000);
  assert.equal(loadConfig({ CAMBIO_WEBHOOK_LEASE_MS: '5000' }).webhookLeaseMs, 5000);
  assert.equal(c.recoveryGraceMs, 30000);
  assert.equal(loadConfig({ CAMBIO_RECOVERY_GRACE_MS: '2000' }).recoveryGraceMs, 2000);
  assert.throws(() => loadConfig({ CAMBIO_WEBHOOK_LEASE_MS: '10' }), /CAMBIO_WEBHOOK_LEASE_MS must be a whole number from 1000 to 3600000/);
  assert.equal(loadConfig({ CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET }).seedDemo, false);
});

test('every problem is reported at once, clearly', () => {
  assert.throws(
    () => loadConfig({ PORT: '99999', CAMBIO_QUOTE_TTL_MS: 'soon', DATABASE_URL: 'mysql://x', OPERATOR_TOKEN: 'short' }),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, /PORT must be a whole number from 0 to 65535/);
      assert.match(e.message, /CAMBIO_QUOTE_TTL_MS/);
      assert.match(e.message, /DATABASE_URL must start with postgres/);
      assert.match(e.message, /OPERATOR_TOKEN must be at least 16/);
      return true;
    },
  );
});

test("LOG_LEVEL is one of pino's levels", () => {
  assert.equal(loadConfig({ LOG_LEVEL: 'warn' }).logLevel, 'warn');
  assert.equal(loadConfig({ LOG_LEVEL: 'DEBUG' }).logLevel, 'debug');
  assert.equal(loadConfig({ LOG_LEVEL: 'silent' }).logLevel, 'silent');
  refusal({ LOG_LEVEL: 'verbose' }, /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent \(got "verbose"\)/);
});

test('HOST is an IP address or a host name', () => {
  for (const ok of ['0.0.0.0', '::', '::1', 'localhost', 'api.cambio.example', '10.1.2.3']) assert.equal(loadConfig({ HOST: ok }).host, ok);
  for (const bad of ['http://localhost', 'localhost:8080', 'bad host', '-x', 'a..b']) {
    refusal({ HOST: bad }, /HOST must be an IP address or a host name, without scheme or port/);
  }
  // Not an IPv4 address, though it looks like one: HOST's problem, not CAMBIO_PUBLIC_URL's (which was never set).
  for (const bad of ['999.1.1.1', '10.1.2', '1.2.3.4.5']) {
    assert.throws(
      () => loadConfig({ HOST: bad }),
      (e: Error) =>
        e.message.includes(`HOST must be an IP address or a host name, without scheme or port (got "${bad}")`) &&
        !e.message.includes('CAMBIO_PUBLIC_URL'),
      bad,
    );
  }
  // A CAMBIO_PUBLIC_URL that was set is still checked on its own.
  refusal({ HOST: '999.1.1.1', CAMBIO_PUBLIC_URL: 'ftp://x' }, /CAMBIO_PUBLIC_URL must be an origin/);
});

test('production refuses to start without CAMBIO_SECRET, and with the demo seed', () => {
  refusal({ CAMBIO_MODE: 'production' }, /CAMBIO_MODE=production needs CAMBIO_SECRET/);
  refusal({ CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET, CAMBIO_SEED_DEMO: 'true' }, /CAMBIO_SEED_DEMO=true is for the sandbox only/);
  const c = loadConfig({ CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET });
  assert.equal(c.mode, 'production');
  assert.equal(c.secret, SECRET);
  // the sandbox keeps working without a secret (generated and kept in the store)
  assert.equal(loadConfig({}).secret, undefined);
});

test('.env is read when present; a Node without loadEnvFile is told which Node it needs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cambio-env-'));
  try {
    const file = join(dir, '.env');
    assert.doesNotThrow(() => loadDotEnv(join(dir, 'absent.env'), { version: 'v20.10.0' } as unknown as NodeJS.Process));
    writeFileSync(file, 'CAMBIO_TEST_DOTENV=from-file\n');
    assert.throws(
      () => loadDotEnv(file, { version: 'v20.10.0' } as unknown as NodeJS.Process),
      (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.match(e.message, /cannot be read by Node v20\.10\.0: Node 20\.12 or later is required/);
        return true;
      },
    );
    loadDotEnv(file);
    assert.equal(process.env.CAMBIO_TEST_DOTENV, 'from-file');
  } finally {
    delete process.env.CAMBIO_TEST_DOTENV;
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the journal log: its name from CAMBIO_LOG_NAME, else the public URL's host, else localhost; a signing key is a base64 32-byte seed", () => {
  assert.equal(loadConfig({}).logName, 'localhost');
  assert.equal(loadConfig({}).logSigningKey, undefined);
  assert.equal(loadConfig({ CAMBIO_PUBLIC_URL: 'https://books.example.com' }).logName, 'books.example.com');
  assert.equal(loadConfig({ CAMBIO_PUBLIC_URL: 'https://books.example.com', CAMBIO_LOG_NAME: 'ledger.example' }).logName, 'ledger.example');
  const seed = Buffer.alloc(32, 1).toString('base64');
  assert.deepEqual(loadConfig({ CAMBIO_LOG_SIGNING_KEY: seed }).logSigningKey, Buffer.alloc(32, 1));
  refusal({ CAMBIO_LOG_SIGNING_KEY: Buffer.alloc(31).toString('base64') }, /CAMBIO_LOG_SIGNING_KEY must be the base64 of a 32-byte/);
  refusal({ CAMBIO_LOG_NAME: 'two words' }, /CAMBIO_LOG_NAME must be printable ASCII/);
  refusal({ CAMBIO_LOG_NAME: 'a+b' }, /CAMBIO_LOG_NAME/);
});

test('CAMBIO_VENUE: desk by default; ccxt:binance in production with its credentials, which never print', () => {
  assert.deepEqual(loadConfig({ CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET }).venue, { kind: 'desk' });
  const c = loadConfig({
    CAMBIO_MODE: 'production',
    CAMBIO_SECRET: SECRET,
    CAMBIO_VENUE: 'ccxt:binance',
    CAMBIO_VENUE_API_KEY: 'key-abc-123',
    CAMBIO_VENUE_SECRET: 'secret-xyz-789',
    CAMBIO_VENUE_URL: 'http://127.0.0.1:9999',
  });
  assert.equal(c.venue.kind, 'ccxt');
  if (c.venue.kind !== 'ccxt') return;
  assert.equal(c.venue.apiKey.reveal(), 'key-abc-123');
  assert.equal(c.venue.secret.reveal(), 'secret-xyz-789');
  const shown = `${JSON.stringify(c)} ${String(c.venue.secret)} ${inspect(c)}`;
  assert.ok(!shown.includes('key-abc-123') && !shown.includes('secret-xyz-789'), shown);
  refusal({ CAMBIO_VENUE: 'ccxt:binance' }, /CAMBIO_VENUE=ccxt:… is for CAMBIO_MODE=production/);
  refusal(
    { CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET, CAMBIO_VENUE: 'ccxt:binance' },
    /needs CAMBIO_VENUE_API_KEY and CAMBIO_VENUE_SECRET/,
  );
  refusal(
    {
      CAMBIO_MODE: 'production',
      CAMBIO_SECRET: SECRET,
      CAMBIO_VENUE: 'ccxt:bitfinex',
      CAMBIO_VENUE_API_KEY: 'k',
      CAMBIO_VENUE_SECRET: 's',
    },
    /reads the exact answers of binance, kraken, okx, coinbase only/,
  );
  // OKX signs with a passphrase too: refused at start without it, naming the variable; held hidden like the others.
  const creds = { CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET, CAMBIO_VENUE_API_KEY: 'k', CAMBIO_VENUE_SECRET: 's' };
  refusal({ ...creds, CAMBIO_VENUE: 'ccxt:okx' }, /CAMBIO_VENUE=ccxt:okx needs CAMBIO_VENUE_PASSWORD/);
  const okx = loadConfig({ ...creds, CAMBIO_VENUE: 'ccxt:okx', CAMBIO_VENUE_PASSWORD: 'pass-phrase-41' });
  assert.ok(okx.venue.kind === 'ccxt' && okx.venue.exchange === 'okx' && okx.venue.password?.reveal() === 'pass-phrase-41');
  assert.ok(!`${JSON.stringify(okx)} ${inspect(okx)}`.includes('pass-phrase-41'));
  for (const exchange of ['kraken', 'coinbase']) {
    const other = loadConfig({ ...creds, CAMBIO_VENUE: `ccxt:${exchange}` });
    assert.ok(other.venue.kind === 'ccxt' && other.venue.exchange === exchange && other.venue.password === undefined);
  }
  refusal({ CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET, CAMBIO_VENUE: 'binance' }, /CAMBIO_VENUE must be desk or ccxt:<exchange id>/);
  refusal(
    {
      CAMBIO_MODE: 'production',
      CAMBIO_SECRET: SECRET,
      CAMBIO_VENUE: 'ccxt:binance',
      CAMBIO_VENUE_API_KEY: 'k',
      CAMBIO_VENUE_SECRET: 's',
      CAMBIO_VENUE_URL: 'ftp://x',
    },
    /CAMBIO_VENUE_URL must be an http\(s\) origin/,
  );
});

test('mail: CAMBIO_SMTP_URL is optional and never shown; the From defaults to the public host', () => {
  const none = loadConfig({});
  assert.equal(none.smtpUrl, undefined);
  assert.equal(none.mailFrom, 'Cambio <no-reply@127.0.0.1>');
  const c = loadConfig({
    CAMBIO_SMTP_URL: 'smtps://cambio:s3cret-pass@smtp.example.test:465',
    CAMBIO_PUBLIC_URL: 'https://cambio.example.test',
  });
  assert.equal(c.smtpUrl?.reveal(), 'smtps://cambio:s3cret-pass@smtp.example.test:465');
  assert.equal(c.mailFrom, 'Cambio <no-reply@cambio.example.test>');
  assert.ok(!inspect(c).includes('s3cret-pass') && !JSON.stringify(c).includes('s3cret-pass'), 'the SMTP password is never printed');
  assert.equal(loadConfig({ CAMBIO_MAIL_FROM: 'Desk <desk@cambio.example.test>' }).mailFrom, 'Desk <desk@cambio.example.test>');
  assert.throws(
    () => loadConfig({ CAMBIO_SMTP_URL: 'http://cambio:s3cret-pass@smtp.example.test' }),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, /CAMBIO_SMTP_URL must be smtp:\/\//);
      assert.ok(!e.message.includes('s3cret-pass'));
      return true;
    },
  );
  refusal({ CAMBIO_MAIL_FROM: 'not an address' }, /CAMBIO_MAIL_FROM must be an address/);
});

test('CAMBIO_VENUES: several named exchange accounts, each with its own variables; refusals name the variable', () => {
  const base = { CAMBIO_MODE: 'production', CAMBIO_SECRET: SECRET };
  const c = loadConfig({
    ...base,
    CAMBIO_VENUES: 'main=ccxt:binance, second=ccxt:binance',
    CAMBIO_VENUE_MAIN_API_KEY: 'key-main-1',
    CAMBIO_VENUE_MAIN_SECRET: 'secret-main-1',
    CAMBIO_VENUE_SECOND_API_KEY: 'key-second-2',
    CAMBIO_VENUE_SECOND_SECRET: 'secret-second-2',
    CAMBIO_VENUE_SECOND_URL: 'http://127.0.0.1:9999',
  });
  assert.equal(c.venue.kind, 'ccxt');
  if (c.venue.kind !== 'ccxt') return;
  assert.deepEqual(
    c.venue.venues.map((v) => [v.name, v.exchange, v.url, v.apiKey.reveal(), v.secret.reveal()]),
    [
      ['main', 'binance', undefined, 'key-main-1', 'secret-main-1'],
      ['second', 'binance', 'http://127.0.0.1:9999', 'key-second-2', 'secret-second-2'],
    ],
  );
  assert.equal(c.venue.name, 'main');
  const shown = `${JSON.stringify(c)} ${inspect(c)}`;
  for (const s of ['key-main-1', 'secret-main-1', 'key-second-2', 'secret-second-2']) assert.ok(!shown.includes(s), shown);
  // CAMBIO_VENUE alone: one venue named after its exchange.
  const one = loadConfig({ ...base, CAMBIO_VENUE: 'ccxt:binance', CAMBIO_VENUE_API_KEY: 'k', CAMBIO_VENUE_SECRET: 's' });
  assert.deepEqual(one.venue.kind === 'ccxt' ? one.venue.venues.map((v) => v.name) : [], ['binance']);
  const creds = { CAMBIO_VENUE_A_API_KEY: 'k', CAMBIO_VENUE_A_SECRET: 's' };
  refusal(
    {
      ...base,
      ...creds,
      CAMBIO_VENUES: 'a=ccxt:binance',
      CAMBIO_VENUE: 'ccxt:binance',
      CAMBIO_VENUE_API_KEY: 'k',
      CAMBIO_VENUE_SECRET: 's',
    },
    /CAMBIO_VENUE and CAMBIO_VENUES are both set/,
  );
  refusal({ ...base, CAMBIO_VENUES: 'a=ccxt:binance' }, /CAMBIO_VENUES venue a needs CAMBIO_VENUE_A_API_KEY and CAMBIO_VENUE_A_SECRET/);
  refusal({ ...base, ...creds, CAMBIO_VENUES: 'A=ccxt:binance' }, /CAMBIO_VENUES must be <name>=ccxt:<exchange id>/);
  refusal({ ...base, ...creds, CAMBIO_VENUES: 'a=binance' }, /CAMBIO_VENUES must be <name>=ccxt:<exchange id>/);
  refusal({ ...base, ...creds, CAMBIO_VENUES: 'a=ccxt:binance,a=ccxt:binance' }, /CAMBIO_VENUES names the venue "a" twice/);
  refusal({ ...base, ...creds, CAMBIO_VENUES: 'a=ccxt:nosuchexchange' }, /CAMBIO_VENUES venue a: Cambio reads the exact answers of/);
  refusal(
    { ...base, ...creds, CAMBIO_VENUES: 'a=ccxt:binance', CAMBIO_VENUE_A_URL: 'http://10.1.2.3' },
    /CAMBIO_VENUE_A_URL must use https:\/\//,
  );
  refusal({ ...creds, CAMBIO_VENUES: 'a=ccxt:binance' }, /CAMBIO_VENUES is for CAMBIO_MODE=production/);
});
