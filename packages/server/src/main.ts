import { Redis } from 'ioredis';
import pino from 'pino';
import { buildApp } from './app.ts';
import { resolveSecrets } from './bootstrap.ts';
import { ConfigError, loadConfig, loadDotEnv } from './config.ts';
import { randomIds } from './domain/ids.ts';
import { systemClock } from './domain/ports.ts';
import { seedExtras } from './seed-extras.ts';
import { seedDemo } from './seed.ts';
import { DataDirLockedError, openDatabase } from './store/db.ts';
import { Store } from './store/index.ts';
import { startBackground } from './background.ts';

/** config → real adapters → listen; clean shutdown on SIGTERM/SIGINT. */
async function main() {
  loadDotEnv();
  const config = loadConfig();
  const logger = pino({ level: config.logLevel, redact: ['req.headers["x-api-key"]', 'req.headers.authorization'] });
  const opened = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.dbPoolSize });
  const store = new Store(opened, randomIds, systemClock);
  const secrets = await resolveSecrets(store, config);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true }) : undefined;
  const deps = { config, store, clock: systemClock, ids: randomIds, secret: secrets.secret, operatorTokenHash: secrets.operatorTokenHash, redis, logger };
  const app = await buildApp(deps);

  if (config.mode === 'sandbox' && config.seedDemo) {
    const demo = await seedDemo(store, config, secrets.secret);
    if (demo) {
      await seedExtras(deps, demo);
      console.log(`demo organization ${demo.organizationId} seeded`);
      console.log(`demo API key (shown once): ${demo.apiKey}`);
    }
  }
  if (secrets.generatedOperatorToken) console.log(`operator token (shown once): ${secrets.generatedOperatorToken}`);

  const stopBackground = startBackground(deps);
  const address = await app.listen({ port: config.port, host: config.host });
  console.log(`listening on ${address.replace('0.0.0.0', '127.0.0.1')}`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    stopBackground();
    await app.close(); // stops accepting, waits for requests in flight
    await store.close();
    await redis?.quit().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((e: unknown) => {
  if (e instanceof ConfigError || e instanceof DataDirLockedError) console.error(`cambio: ${e.message}`);
  else console.error('cambio: failed to start:', e);
  process.exit(1);
});
