import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { DomainError } from '../../domain/errors.ts';

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
    ...(opts.redis ? { redis: opts.redis, nameSpace: 'cambio-rl:' } : {}),
    errorResponseBuilder: (_req, ctx) => Object.assign(new DomainError('rate_limit.exceeded'), { statusCode: ctx.statusCode }),
  });
  // A context hook added before authentication: every request counts, also the ones that fail to authenticate.
  app.addHook('onRequest', app.rateLimit());
}
