import {
  CreateWebhook,
  PageQuery,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookHealth,
  WebhookReplayParams,
  WebhookWithSecret,
} from '@cambio/contract';
import { readEventId } from '../../domain/opaque-ids.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { createEndpoint } from '../../usecases/webhooks/create-endpoint.ts';
import { deleteEndpoint } from '../../usecases/webhooks/delete-endpoint.ts';
import { enableEndpoint } from '../../usecases/webhooks/enable-endpoint.ts';
import { replayDelivery } from '../../usecases/webhooks/replay-delivery.ts';
import { rotateSecret } from '../../usecases/webhooks/rotate-secret.ts';
import { resolveForDelivery } from '../../webhooks/http-sender.ts';
import { ok } from '../envelope.ts';
import { pageParams } from '../page-params.ts';
import { actorOfPrincipal, principalOf } from '../route-config.ts';
import { apiKeySecurity, IdParam, listResponses, responses } from '../schemas.ts';
import { deliveryWire, endpointWire, healthWire } from '../wire/webhooks.ts';

/** The window of an endpoint's health figures. */
const HEALTH_WINDOW_HOURS = 24;

const Replayed = Type.Object({
  eventId: Type.String(),
  state: Type.Literal('pending'),
  nextAttemptAt: Type.String({ format: 'date-time' }),
});

/** Webhook endpoints of the caller's organization, their deliveries and replay (docs/api-guide.md). */
export const webhookRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store, clock, secret, config } = deps;
    const tags = ['webhooks'];
    const scope = { scope: 'portal:webhooks' as const };

    app.post(
      '/webhooks',
      {
        config: scope,
        schema: {
          tags,
          security: apiKeySecurity,
          body: CreateWebhook,
          response: responses(201, WebhookWithSecret),
          operationId: 'createWebhook',
          summary: "Registers an endpoint that receives the organization's events, signed (Standard Webhooks); the secret is shown once",
        },
      },
      async (req, reply) => {
        const p = principalOf(req);
        // Production: the url must resolve to public addresses now (and is checked again at every attempt).
        const urlRefusal =
          config.mode !== 'production'
            ? undefined
            : async (url: string) => {
                const r = await resolveForDelivery(url, { allowPrivate: false, resolve: deps.webhookResolve });
                // The reason stays in the service's log; the client is told only that the address is not allowed.
                if ('problem' in r) req.log.info({ detail: r.problem }, 'webhook url refused');
                return 'problem' in r;
              };
        const { endpoint, secret: plain } = await createEndpoint({ ...deps, urlRefusal }, actorOfPrincipal(p), p.organization.id, {
          url: req.body.url,
          types: req.body.types ?? null,
        });
        return reply.code(201).send(ok(req.id, { ...endpointWire(endpoint), secret: plain }));
      },
    );

    app.get(
      '/webhooks',
      {
        config: scope,
        schema: {
          tags,
          security: apiKeySecurity,
          response: listResponses(WebhookEndpoint),
          operationId: 'listWebhooks',
          summary: 'Every webhook endpoint of the organization, newest first (not paged)',
        },
      },
      async (req) => ok(req.id, (await store.webhooks.list(principalOf(req).organization.id)).map(endpointWire)),
    );

    app.get(
      '/webhooks/:id',
      {
        config: scope,
        schema: {
          tags,
          security: apiKeySecurity,
          params: IdParam,
          response: responses(200, WebhookEndpoint),
          operationId: 'getWebhook',
          summary: 'One webhook endpoint: its status (disabled after failing for days) and since when it fails',
        },
      },
      async (req) => {
        const e = await store.webhooks.get(principalOf(req).organization.id, req.params.id);
        if (!e) throw new DomainError('webhooks.not_found');
        return ok(req.id, endpointWire(e));
      },
    );

    app.delete(
      '/webhooks/:id',
      {
        config: scope,
        schema: {
          tags,
          security: apiKeySecurity,
          params: IdParam,
          response: responses(200, WebhookEndpoint),
          operationId: 'deleteWebhook',
          summary: 'Deletes an endpoint: nothing more is sent to it; its delivery log goes with it',
        },
      },
      async (req) => {
        const p = principalOf(req);
        return ok(req.id, endpointWire(await deleteEndpoint(deps, actorOfPrincipal(p), p.organization.id, req.params.id)));
      },
    );

    app.post(
      '/webhooks/:id/rotate-secret',
      {
        config: scope,
        schema: {
          tags,
          security: apiKeySecurity,
          params: IdParam,
          response: responses(200, WebhookWithSecret),
          operationId: 'rotateWebhookSecret',
          summary: 'A new signing secret, shown once; for 24 hours every attempt carries both signatures (new and previous)',
        },
      },
      async (req) => {
        const p = principalOf(req);
        const { endpoint, secret: plain } = await rotateSecret(deps, actorOfPrincipal(p), p.organization.id, req.params.id);
        return ok(req.id, { ...endpointWire(endpoint), secret: plain });
      },
    );

    app.post(
      '/webhooks/:id/enable',
      {
        config: scope,
        schema: {
          tags,
          security: apiKeySecurity,
          params: IdParam,
          response: responses(200, WebhookEndpoint),
          operationId: 'enableWebhook',
          summary: 'Enables a disabled endpoint again; its pending deliveries are due at once',
        },
      },
      async (req) => {
        const p = principalOf(req);
        return ok(req.id, endpointWire(await enableEndpoint(deps, actorOfPrincipal(p), p.organization.id, req.params.id)));
      },
    );

    app.get(
      '/webhooks/:id/health',
      {
        config: scope,
        schema: {
          tags,
          security: apiKeySecurity,
          params: IdParam,
          response: responses(200, WebhookHealth),
          operationId: 'getWebhookHealth',
          summary: 'How the endpoint is doing: attempts and successes over 24 hours, deliveries waiting, the next retry, the last failure',
        },
      },
      async (req) => {
        const org = principalOf(req).organization.id;
        if (!(await store.webhooks.get(org, req.params.id))) throw new DomainError('webhooks.not_found');
        const since = new Date(clock.now().getTime() - HEALTH_WINDOW_HOURS * 3_600_000);
        return ok(req.id, healthWire(await store.webhooks.health(req.params.id, since), HEALTH_WINDOW_HOURS));
      },
    );

    app.get(
      '/webhooks/:id/deliveries',
      {
        config: scope,
        schema: {
          tags,
          security: apiKeySecurity,
          params: IdParam,
          querystring: PageQuery,
          response: listResponses(WebhookDelivery),
          operationId: 'listWebhookDeliveries',
          summary: "The endpoint's deliveries, newest first: state, attempts with their status codes, next attempt",
        },
      },
      async (req) => {
        const org = principalOf(req).organization.id;
        if (!(await store.webhooks.get(org, req.params.id))) throw new DomainError('webhooks.not_found');
        const page = await store.webhooks.deliveries(org, req.params.id, pageParams(req.query));
        return ok(req.id, page.items.map(deliveryWire(secret)), page.pagination);
      },
    );

    app.post(
      '/webhooks/:id/deliveries/:eventId/replay',
      {
        config: scope,
        schema: {
          tags,
          security: apiKeySecurity,
          params: WebhookReplayParams,
          response: responses(200, Replayed),
          operationId: 'replayWebhookDelivery',
          summary:
            "Sends one of the organization's events to the endpoint again, now, with the same webhook-id (also an event it never had)",
        },
      },
      async (req) => {
        const at = await replayDelivery(deps, principalOf(req).organization.id, req.params.id, readEventId(secret, req.params.eventId));
        return ok(req.id, { eventId: req.params.eventId, state: 'pending' as const, nextAttemptAt: at.toISOString() });
      },
    );
  };
