import pino, { type Logger } from 'pino';
import { buildApp } from './app.ts';
import { startBackground } from './background.ts';
import { resolveSecrets } from './bootstrap.ts';
import { ConfigError, DatabaseOpenError, databaseOpenError, loadConfig, loadDotEnv, sandboxCooldownLine, startWarnings } from './config.ts';
import { randomIds } from './domain/ids.ts';
import { systemClock } from './domain/ports.ts';
import type { AppDeps } from './deps.ts';
import { rateLimitRedis } from './http/plugins/rate-limit.ts';
import { venueFor } from './venues/index.ts';
import { writeOperatorTokenFile } from './operator-token-file.ts';
import { smtpSender } from './mail/smtp-sender.ts';
import { seedDemo } from './seed.ts';
import { SignalGate } from './signal-gate.ts';
import { DataDirLockedError, openDatabase } from './store/db.ts';
import { Store } from './store/index.ts';
import { NotifiedAuthCache, noAuthCache } from './store/auth-cache.ts';
import type { KeyForAuth } from './store/keys-store.ts';

class StopRequested extends Error {}

/**
 * What start-up opened, closed last-first on shutdown or on a failed start. Every close runs even when
 * an earlier one fails, so the store (and the PGlite directory lock) is always released.
 */
class Lifecycle {
  readonly #closers: Array<{ name: string; close: () => Promise<unknown> }> = [];
  #closing: Promise<boolean> | null = null;
  /** The signal received, if any; during start-up the next checkpoint stops the start. */
  signal: string | null = null;
  running = false;
  constructor(private readonly logger: Logger) {}

  add(name: string, close: () => Promise<unknown>) {
    this.#closers.push({ name, close });
  }

  checkpoint() {
    if (this.signal !== null) throw new StopRequested(this.signal);
  }

  close(): Promise<boolean> {
    this.#closing ??= (async () => {
      let ok = true;
      for (const c of [...this.#closers].reverse()) {
        try {
          await c.close();
        } catch (err) {
          ok = false;
          this.logger.error({ err }, `closing the ${c.name} failed`);
        }
      }
      return ok;
    })();
    return this.#closing;
  }
}

/** config → real adapters → listen; clean shutdown on SIGTERM/SIGINT, also in the middle of start-up. */
async function main() {
  loadDotEnv();
  const config = loadConfig();
  const logger = pino({ level: config.logLevel, redact: ['req.headers["x-api-key"]', 'req.headers.authorization'] });
  const life = new Lifecycle(logger);
  for (const w of startWarnings(config)) console.error(`cambio: ${w}`);

  // Installed before the long start-up work (migrations, seeding): a stop request never kills it halfway.
  const gate = new SignalGate();
  const onSignal = (signal: string) => {
    const verdict = gate.receive(signal);
    if (verdict === 'echo') return; // the same signal forwarded by npm: already shutting down
    if (verdict === 'force') {
      logger.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1); // the directory lock is still released on exit (store/db.ts)
    }
    life.signal = signal;
    logger.info({ signal }, 'shutting down');
    if (life.running) void life.close().then((ok) => process.exit(ok ? 0 : 1));
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));

  try {
    const opened = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: config.dbPoolSize,
      log: (m) => logger.warn(m),
    }).catch((e: unknown) => {
      if (e instanceof DataDirLockedError) throw e;
      logger.debug({ err: e }, 'opening the database failed');
      throw databaseOpenError(e, config);
    });
    // Authenticated keys are kept between requests unless CAMBIO_AUTH_CACHE_TTL_MS=0; every committed change to
    // a key, a member, an organization or the reconciliation flag is notified and drops them (store/auth-cache.ts).
    const authCache =
      config.authCacheTtlMs > 0 ? new NotifiedAuthCache<KeyForAuth>(await opened.authChanges(), config.authCacheTtlMs) : noAuthCache;
    const store = new Store(opened, randomIds, systemClock, { authCache });
    life.add('store', () => store.close());
    life.checkpoint();

    // The operator token is shown the moment it is generated (once, at first start: docs/production.md): printed in
    // the sandbox, written to a file readable by this user only in production (operator-token-file.ts).
    const secrets = await resolveSecrets(store, config, {
      generated: (token) =>
        config.mode === 'production'
          ? console.log(`operator token written to ${writeOperatorTokenFile(config.operatorTokenFile, token)} (readable by this user only)`)
          : console.log(`operator token (shown once): ${token}`),
      notUsed: () => console.log('(that operator token is not used: another instance stored its token first; use the one it printed)'),
    });
    life.checkpoint();

    const redis = config.redisUrl ? rateLimitRedis(config.redisUrl, logger) : undefined;
    if (redis) life.add('Redis connection', () => redis.quit().catch(() => redis.disconnect()));
    // The venue is chosen here, once: the simulated one in sandbox; in production the desk (docs/design/money-and-states.md) or an exchange through CCXT (docs/market.md).
    const venue = venueFor(config, store, systemClock, logger);
    // Mail is chosen here, once: SMTP when CAMBIO_SMTP_URL is set, else none (the apps show the links).
    const mail = config.smtpUrl ? smtpSender(config.smtpUrl, config.mailFrom) : undefined;
    if (mail) life.add('mail sender', async () => mail.close());
    const deps: AppDeps = {
      config,
      store,
      clock: systemClock,
      ids: randomIds,
      venue,
      secret: secrets.secret,
      operatorTokenHash: secrets.operatorTokenHash,
      redis,
      logger,
      mail,
    };
    const app = await buildApp(deps);
    life.add('HTTP server', () => app.close()); // stops accepting, waits for requests in flight
    life.checkpoint();

    if (config.mode === 'sandbox' && config.seedDemo) {
      await seedDemo(deps, (demo) => {
        console.log(`demo organization ${demo.organizationId} seeded`);
        console.log(`demo API key (shown once): ${demo.apiKey}`);
        console.log(`demo sign-in (shown once): ${demo.memberSignIn.email} ${demo.memberSignIn.password}`);
        console.log(`operator sign-in (shown once): ${demo.operatorSignIn.email} ${demo.operatorSignIn.password}`);
      });
    }
    life.checkpoint();

    life.add('background tasks', startBackground(deps)); // stopped first: waits for a run in flight
    const address = await app.listen({ port: config.port, host: config.host });
    life.running = true;
    life.checkpoint();
    if (config.mode === 'sandbox') console.log(sandboxCooldownLine(config.destinationCooldownMs));
    console.log(`listening on ${address.replace('0.0.0.0', '127.0.0.1')}`);
  } catch (e) {
    const ok = await life.close();
    if (e instanceof StopRequested) process.exit(ok ? 0 : 1);
    throw e;
  }
}

main().catch((e: unknown) => {
  if (e instanceof ConfigError || e instanceof DataDirLockedError || e instanceof DatabaseOpenError) console.error(`cambio: ${e.message}`);
  else console.error('cambio: failed to start:', e);
  process.exit(1);
});
