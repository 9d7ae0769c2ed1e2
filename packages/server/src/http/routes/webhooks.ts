import { CreateWebhook, PageQuery, WebhookDelivery, WebhookEndpoint, WebhookHealth, WebhookReplayParams, WebhookWithSecret } from '@cambio/contract';
import { readEventId } from '../../domain/opaque-ids.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { urlProblem } from '../../domain/webhooks/endpoint.ts';
import { newWebhookSecret, WebhookSecretSealer } from '../../domain/webhooks/secret.ts';
import { resolveForDelivery } from '../../webhooks/http-sender.ts';
import { ok } from '../envelope.ts';
import { pageParams } from '../page-params.ts';
import { actorOfPrincipal, principalOf } from '../route-config.ts';
import { apiKeySecurity, IdParam, listResponses, responses } from '../schemas.ts';
import { deliveryWire, endpointWire, healthWire } from '../wire/webhooks.ts';

/** The window of an endpoint's health figures. */
const HEALTH_WINDOW_HOURS = 24;

/** During a rotation the previous secret keeps signing this long, beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

const Replayed = Type.Object({ eventId: Type.String(), state: Type.Literal('pending'), nextAttemptAt: Type.String({ format: 'date-time' }) });

/** Webhook endpoints of the caller's organization, their deliveries and replay (CONTRACT §10). */
export const webhookRoutes = (deps: AppDeps): FastifyPluginAsyncTypebox => async (app) => {
  const { store, clock, ids, secret, config } = deps;
  const tags = ['webhooks'];
  const sealer = new WebhookSecretSealer(secret);
  const scope = { scope: 'portal:webhooks' as const };

  app.post('/webhooks', {
    config: scope,
    schema: {
      tags, security: apiKeySecurity, body: CreateWebhook, response: responses(201, WebhookWithSecret), operationId: 'createWebhook',
      summary: 'Registers an endpoint that receives the organization\'s events, signed (Standard Webhooks); the secret is shown once',
    },
  }, async (req, reply) => {
    const org = principalOf(req).organization;
    const problem = urlProblem(req.body.url);
    if (problem) throw new DomainError('webhooks.url_invalid', { detail: problem });
    // Production: the url must resolve to public addresses now (and is checked again at every attempt).
    if (config.mode === 'production') {
      const r = await resolveForDelivery(req.body.url, { allowPrivate: false, resolve: deps.webhookResolve });
      if ('problem' in r) throw new DomainError('webhooks.url_refused', { detail: r.problem });
    }
    const id = ids.next('whk');
    const plain = newWebhookSecret();
    const e = await store.webhooks.create({
      id, organizationId: org.id, url: req.body.url, types: req.body.types ?? null,
      secretSealed: sealer.seal(plain, { organizationId: org.id, endpointId: id }),
    }, actorOfPrincipal(principalOf(req)));
    return reply.code(201).send(ok(req.id, { ...endpointWire(e), secret: plain }));
  });

  app.get('/webhooks', {
    config: scope,
    schema: { tags, security: apiKeySecurity, response: listResponses(WebhookEndpoint), operationId: 'listWebhooks', summary: 'Every webhook endpoint of the organization, newest first (not paged)' },
  }, async (req) => ok(req.id, (await store.webhooks.list(principalOf(req).organization.id)).map(endpointWire)));

  app.get('/webhooks/:id', {
    config: scope,
    schema: { tags, security: apiKeySecurity, params: IdParam, response: responses(200, WebhookEndpoint), operationId: 'getWebhook', summary: 'One webhook endpoint: its status (disabled after failing for days) and since when it fails' },
  }, async (req) => {
    const e = await store.webhooks.get(principalOf(req).organization.id, req.params.id);
    if (!e) throw new DomainError('webhooks.not_found');
    return ok(req.id, endpointWire(e));
  });

  app.delete('/webhooks/:id', {
    config: scope,
    schema: { tags, security: apiKeySecurity, params: IdParam, response: responses(200, WebhookEndpoint), operationId: 'deleteWebhook', summary: 'Deletes an endpoint: nothing more is sent to it; its delivery log goes with it' },
  }, async (req) => {
    const e = await store.webhooks.delete(principalOf(req).organization.id, req.params.id, actorOfPrincipal(principalOf(req)));
    if (!e) throw new DomainError('webhooks.not_found');
    return ok(req.id, endpointWire(e));
  });

  app.post('/webhooks/:id/rotate-secret', {
    config: scope,
    schema: {
      tags, security: apiKeySecurity, params: IdParam, response: responses(200, WebhookWithSecret), operationId: 'rotateWebhookSecret',
      summary: 'A new signing secret, shown once; for 24 hours every attempt carries both signatures (new and previous)',
    },
  }, async (req) => {
    const org = principalOf(req).organization.id;
    const plain = newWebhookSecret();
    const e = await store.webhooks.rotate(org, req.params.id, sealer.seal(plain, { organizationId: org, endpointId: req.params.id }), new Date(clock.now().getTime() + ROTATION_OVERLAP_MS), actorOfPrincipal(principalOf(req)));
    if (!e) throw new DomainError('webhooks.not_found');
    return ok(req.id, { ...endpointWire(e), secret: plain });
  });

  app.post('/webhooks/:id/enable', {
    config: scope,
    schema: { tags, security: apiKeySecurity, params: IdParam, response: responses(200, WebhookEndpoint), operationId: 'enableWebhook', summary: 'Enables a disabled endpoint again; its pending deliveries are due at once' },
  }, async (req) => {
    const e = await store.webhooks.enable(principalOf(req).organization.id, req.params.id, actorOfPrincipal(principalOf(req)));
    if (!e) throw new DomainError('webhooks.not_found');
    return ok(req.id, endpointWire(e));
  });

  app.get('/webhooks/:id/health', {
    config: scope,
    schema: {
      tags, security: apiKeySecurity, params: IdParam, response: responses(200, WebhookHealth), operationId: 'getWebhookHealth',
      summary: 'How the endpoint is doing: attempts and successes over 24 hours, deliveries waiting, the next retry, the last failure',
    },
  }, async (req) => {
    const org = principalOf(req).organization.id;
    if (!(await store.webhooks.get(org, req.params.id))) throw new DomainError('webhooks.not_found');
    const since = new Date(clock.now().getTime() - HEALTH_WINDOW_HOURS * 3_600_000);
    return ok(req.id, healthWire(await store.webhooks.health(req.params.id, since), HEALTH_WINDOW_HOURS));
  });

  app.get('/webhooks/:id/deliveries', {
    config: scope,
    schema: {
      tags, security: apiKeySecurity, params: IdParam, querystring: PageQuery, response: listResponses(WebhookDelivery), operationId: 'listWebhookDeliveries',
      summary: 'The endpoint\'s deliveries, newest first: state, attempts with their status codes, next attempt',
    },
  }, async (req) => {
    const org = principalOf(req).organization.id;
    if (!(await store.webhooks.get(org, req.params.id))) throw new DomainError('webhooks.not_found');
    const page = await store.webhooks.deliveries(org, req.params.id, pageParams(req.query));
    return ok(req.id, page.items.map(deliveryWire(secret)), page.pagination);
  });

  app.post('/webhooks/:id/deliveries/:eventId/replay', {
    config: scope,
    schema: {
      tags, security: apiKeySecurity, params: WebhookReplayParams, response: responses(200, Replayed), operationId: 'replayWebhookDelivery',
      summary: 'Sends one of the organization\'s events to the endpoint again, now, with the same webhook-id (also an event it never had)',
    },
  }, async (req) => {
    const internal = readEventId(secret, req.params.eventId);
    const r = internal === null ? 'no_event' : await store.webhooks.replay(principalOf(req).organization.id, req.params.id, internal);
    if (r === 'no_endpoint') throw new DomainError('webhooks.not_found');
    if (r === 'no_event') throw new DomainError('webhooks.event_not_found');
    return ok(req.id, { eventId: req.params.eventId, state: 'pending' as const, nextAttemptAt: clock.now().toISOString() });
  });
};
