import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { pickLang } from '@cambio/contract';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Type } from '@sinclair/typebox';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppDeps } from './deps.ts';
import { DomainError } from './domain/errors.ts';
import { clientApi } from './http/client-api.ts';
import { clientErrorHandler } from './http/socket-errors.ts';
import { InvalidJsonError, parseJsonBody } from './http/json-body.ts';
import { requestForLog } from './http/log-request.ts';
import { documentExtras, documentRoute } from './http/openapi-doc.ts';
import { transparencyPublicRoutes } from './http/routes/transparency-public.ts';
import { PageAnchors, registerPageAnchors } from './http/page-anchor.ts';
import { registerErrorHandling, sendError } from './http/plugins/errors.ts';
import { createMetrics } from './http/plugins/metrics.ts';
import { docsCsp, registerResponseHeaders } from './http/plugins/response-headers.ts';
import { serializerCompiler } from './http/serializers.ts';
import { validatorCompiler } from './http/validators.ts';
import { webApps } from './http/plugins/web-apps.ts';
import { operatorApi } from './operator/operator-api.ts';
import { STORE_RETRY_AFTER_S } from './store/store-unavailable.ts';
import { portalApi } from './portal/portal-api.ts';

export const BODY_LIMIT = 64 * 1024;
const NO_QUERY = Type.Object({}, { additionalProperties: false });

/** http://<address>:<port> of a listening socket; the wildcard addresses are reached on loopback. */
export function boundOrigin(address: string, port: number): string {
  const host = address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? '::1' : address;
  return `http://${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

/** Builds the whole service. Never listens: main.ts does, tests use inject(). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger.child({}, { serializers: { req: requestForLog } }) } : { logger: false }),
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'traceId' }),
    bodyLimit: BODY_LIMIT,
    requestTimeout: deps.requestTimeoutMs ?? 30_000,
    connectionTimeout: 60_000,
    keepAliveTimeout: 72_000,
    trustProxy: false,
    routerOptions: { maxParamLength: 200 },
    clientErrorHandler,
    // A URL the router cannot decode (`/api/v1/%`) never reaches a hook or a route: answer it in the envelope too.
    frameworkErrors: (_err, req, reply) => {
      req.lang = pickLang(req.headers['x-lang'], req.headers['accept-language']);
      reply.header('x-trace-id', req.id);
      void sendError(req, reply, 'request.bad_request');
    },
  }) as unknown as FastifyInstance;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // A query parameter a route does not know is a 400, not ignored: a route of the APIs without a query schema takes none.
  app.addHook('onRoute', (route) => {
    if (!/^\/(api|operator)\/v1\//.test(route.url) || route.config?.public) return;
    route.schema = { ...route.schema, querystring: route.schema?.querystring ?? NO_QUERY };
  });
  // JSON only: any other media type is a 415 in the envelope.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    req.rawBody = body as string;
    // Any parser failure is the client's malformed body: 400 request.invalid_json, never a 500.
    try {
      done(null, parseJsonBody(body as string));
    } catch (e) {
      done(e instanceof InvalidJsonError ? e : new InvalidJsonError(String(e)), undefined);
    }
  });

  app.decorateRequest('lang', 'es');
  // Hooks that every request passes are written in the callback style: no promise, no extra tick.
  app.addHook('onRequest', (req, reply, done) => {
    req.lang = pickLang(req.headers['x-lang'], req.headers['accept-language']);
    reply.header('x-trace-id', req.id);
    // PostgreSQL text cannot hold NUL: an id or query with one is malformed, not a database failure (500).
    done(req.url.includes('%00') ? new DomainError('request.bad_request') : undefined);
  });
  // Unless CAMBIO_PUBLIC_URL says otherwise, the service's origin is the address actually bound (with
  // PORT=0 the port picked, never 0): invitation links and the cross-origin check read it per request.
  app.addHook('onListen', (done) => {
    const bound = app.server.address();
    if (!deps.config.publicUrlSet && bound !== null && typeof bound === 'object')
      deps.config.publicUrl = boundOrigin(bound.address, bound.port);
    done();
  });
  // A change the API answered may have written events (a trigger writes them in its transaction, which has
  // committed by now): the delivery worker is nudged to claim their deliveries at once, not at its next poll.
  app.addHook('onResponse', (req, reply, done) => {
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS' && reply.statusCode < 400)
      deps.store.webhooks.wakes.nudge();
    done();
  });
  registerErrorHandling(app);
  registerResponseHeaders(app);
  registerPageAnchors(app, new PageAnchors(deps.secret));
  const metrics = createMetrics(deps.store, deps.clock, deps.venue);
  metrics.instrument(app);
  // Every route and use case counts into this app's registry.
  deps = { ...deps, tally: metrics.tally };

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Cambio exchange API',
        version: '1.0.0',
        description:
          'Client API (/api/v1) and operator API (/operator/v1). Every response is the envelope; amounts are digit strings of minimum units.',
        license: documentExtras.license,
      },
      servers: documentExtras.servers,
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          bearer: { type: 'http', scheme: 'bearer' },
          operator: { type: 'http', scheme: 'bearer', description: "OPERATOR_TOKEN, or a staff person's own token (ops_…)" },
          memberSession: { type: 'apiKey', in: 'cookie', name: 'cambio_member' },
          staffSession: { type: 'apiKey', in: 'cookie', name: 'cambio_staff' },
        },
      },
    },
    transform: documentRoute,
  });
  // "Try it out" is aimed at this service as people reach it (CAMBIO_PUBLIC_URL, else the address bound),
  // whatever port it listens on.
  const servedAt = (doc: Readonly<Record<string, unknown>>) => ({
    ...doc,
    servers: [{ url: deps.config.publicUrl, description: 'this service' }],
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true, transformStaticCSP: docsCsp, transformSpecification: servedAt });
  app.get('/api/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
    servedAt(app.swagger() as unknown as Record<string, unknown>),
  );
  app.get('/health', { config: { public: true }, schema: { hide: true } }, async (req) => ({
    success: true,
    message: null,
    data: { status: 'ok', store: deps.store.kind },
    code: null,
    timestamp: new Date().toISOString(),
    traceId: req.id,
    pagination: null,
  }));

  // Readiness, for a load balancer: 200 while the store answers (on PostgreSQL: the primary), else 503
  // store.unavailable with Retry-After. /health is liveness: it never touches the store.
  app.get('/ready', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    try {
      await sql`select 1`.execute(deps.store.db);
    } catch (err) {
      req.log.warn({ detail: (err as Error).message }, 'not ready: the store does not answer');
      reply.header('retry-after', String(STORE_RETRY_AFTER_S));
      return sendError(req, reply, 'store.unavailable');
    }
    return {
      success: true,
      message: null,
      data: { status: 'ready', store: deps.store.kind },
      code: null,
      timestamp: new Date().toISOString(),
      traceId: req.id,
      pagination: null,
    };
  });

  await app.register(transparencyPublicRoutes(deps), { prefix: '/transparency' });
  await app.register(async (api) => clientApi(api, deps), { prefix: '/api/v1' });
  await app.register(async (portal) => portalApi(portal, deps), { prefix: '/portal/v1' });
  await app.register(
    async (op) => {
      await operatorApi(op, deps);
      op.get('/metrics', { schema: { tags: ['operator: metrics'], summary: 'Prometheus metrics (text format)' } }, async (_req, reply) =>
        reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
      );
    },
    { prefix: '/operator/v1' },
  );
  await app.register(async (web) =>
    webApps(web, deps.webApps, deps.config.mode, deps.config.mode === 'production' && deps.config.venue.kind === 'desk' ? 'none' : 'venue'),
  );
  return app;
}
