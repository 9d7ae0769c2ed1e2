import { createRequire } from 'node:module';
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { DomainError } from '../../domain/errors.ts';

type Incr = (
  key: string,
  cb: (err: Error | null, res?: { current: number; ttl: number }) => void,
  timeWindow?: number,
  max?: number,
) => void;
interface PluginStore {
  incr: Incr;
  child(routeOptions: unknown): PluginStore;
}
type RedisStoreCtor = new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key?: string) => PluginStore;
const RedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore.js') as RedisStoreCtor;

/** At most one warning per this interval while the counter store keeps failing. */
export const WARN_EVERY_MS = 10_000;

/**
 * The plugin's Redis store, with a warning in the log when Redis fails. The request is let through
 * (skipOnError): the limit protects capacity, not money, so a Redis outage must not turn every
 * /api/v1 request into a 500.
 */
function failOpenRedisStore(redis: Redis, log: FastifyBaseLogger): new () => FastifyRateLimitStore {
  let lastWarn = 0;
  const wrap = (inner: PluginStore): PluginStore => ({
    incr: (key, cb, timeWindow, max) =>
      inner.incr(
        key,
        (err, res) => {
          if (err && Date.now() - lastWarn >= WARN_EVERY_MS) {
            lastWarn = Date.now();
            log.warn({ err: err.message }, 'rate limit: Redis unavailable, requests are let through uncounted');
          }
          cb(err, res);
        },
        timeWindow,
        max,
      ),
    child: (o) => wrap(inner.child(o)),
  });
  const store = wrap(new RedisStore(false, false, redis, 'cambio-rl:'));
  return class {
    constructor() {
      return store;
    }
  } as unknown as new () => FastifyRateLimitStore;
}

/**
 * The Redis client of the rate limit. While it is disconnected a command fails at once (no offline
 * queue), so during an outage a request is let through without waiting for reconnection attempts.
 */
export function rateLimitRedis(url: string, log?: { warn(obj: object, msg: string): void }): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 });
  let lastWarn = 0;
  redis.on('error', (e: Error) => {
    if (Date.now() - lastWarn < WARN_EVERY_MS) return;
    lastWarn = Date.now();
    log?.warn({ err: e.message }, 'rate limit: Redis connection failed');
  });
  return redis;
}

/**
 * Requests per minute per client address (spec: Limits). Counters live in memory, or in Redis when
 * several instances must share them. A 429 is the envelope with Retry-After.
 */
export async function registerRateLimit(app: FastifyInstance, opts: { perMinute: number; redis?: Redis | undefined }) {
  if (opts.perMinute <= 0) return;
  await app.register(rateLimit, {
    global: false,
    max: opts.perMinute,
    timeWindow: 60_000,
    keyGenerator: (req) => req.ip,
    ...(opts.redis ? { store: failOpenRedisStore(opts.redis, app.log), skipOnError: true } : {}),
    errorResponseBuilder: (_req, ctx) => Object.assign(new DomainError('rate_limit.exceeded'), { statusCode: ctx.statusCode }),
  });
  // A context hook added before authentication: every request counts, also the ones that fail to authenticate.
  app.addHook('onRequest', app.rateLimit());
}
