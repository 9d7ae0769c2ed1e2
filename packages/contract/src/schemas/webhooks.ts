import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable } from './common.ts';
import { EventType } from './events.ts';

/** `POST /api/v1/webhooks` (docs/api-guide.md): where to send events, and which types (absent: every type). */
export const CreateWebhook = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'http(s) URL that receives each event as a POST; in production it must resolve to public addresses only',
    }),
    types: Type.Optional(
      Type.Array(EventType, { minItems: 1, maxItems: 32, uniqueItems: true, description: 'event types to send; absent: every type' }),
    ),
  },
  { additionalProperties: false },
);
export type CreateWebhook = Static<typeof CreateWebhook>;

/** An endpoint; its secret is shown once, when created or rotated. */
export const WebhookEndpoint = Type.Object({
  id: Type.String(),
  url: Type.String(),
  types: Nullable(Type.Array(EventType)),
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')], {
    description: 'disabled after failing for three days without a success; the organization gets a webhook.disabled event',
  }),
  failingSince: Nullable(DateTime),
  disabledAt: Nullable(DateTime),
  disabledReason: Nullable(Type.String()),
  previousSecretUntil: Nullable(DateTime),
  createdAt: DateTime,
});
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

export const WebhookWithSecret = Type.Intersect([
  WebhookEndpoint,
  Type.Object({
    secret: Type.String({ pattern: '^whsec_', description: 'the signing secret (Standard Webhooks), shown once' }),
  }),
]);
export type WebhookWithSecret = Static<typeof WebhookWithSecret>;

export const WebhookAttempt = Type.Object({
  attempt: Type.Integer(),
  startedAt: DateTime,
  durationMs: Type.Integer(),
  statusCode: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
});

/** One event for one endpoint: its state and every attempt made. */
export const WebhookDelivery = Type.Object({
  eventId: Type.String(),
  eventType: EventType,
  state: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  nextAttemptAt: Nullable(DateTime),
  lastStatusCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  lastAttemptAt: Nullable(DateTime),
  deliveredAt: Nullable(DateTime),
  createdAt: DateTime,
  log: Type.Array(WebhookAttempt),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

/** How an endpoint is doing: its attempts over the last 24 hours, what waits, and its last failure. */
export const WebhookHealth = Type.Object({
  windowHours: Type.Integer({ description: 'the window the attempt counts cover, ending now' }),
  attempts: Type.Integer(),
  succeeded: Type.Integer({ description: 'attempts answered 2xx within 10 s' }),
  successRatePct: Nullable(
    Type.Integer({ minimum: 0, maximum: 100, description: 'succeeded × 100 / attempts, rounded down; null with no attempt in the window' }),
  ),
  pending: Type.Integer({ description: 'deliveries not yet delivered nor given up' }),
  retrying: Type.Integer({ description: 'pending deliveries that failed at least once' }),
  nextRetryAt: Nullable(DateTime),
  lastSuccessAt: Nullable(DateTime),
  lastFailure: Nullable(Type.Object({ at: DateTime, statusCode: Nullable(Type.Integer()), error: Nullable(Type.String()) })),
});
export type WebhookHealth = Static<typeof WebhookHealth>;

export const WebhookReplayParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  eventId: Type.String({ pattern: '^evt_[a-z2-7]{26}$' }),
});

/** `POST /api/v1/webhooks/:id/test` (sandbox only): how the endpoint answered a signed `webhook.test` event sent now. */
export const WebhookTestResult = Type.Object({
  eventId: Type.String({ description: 'the webhook-id the test event was sent with' }),
  type: Type.Literal('webhook.test'),
  state: Type.Union([Type.Literal('delivered'), Type.Literal('failed')], { description: 'delivered: the endpoint answered 2xx' }),
  statusCode: Nullable(
    Type.Integer({ description: "the endpoint's HTTP status; null when none came (refused address, no connection, timeout)" }),
  ),
  latencyMs: Type.Integer({ minimum: 0, description: 'from sending to the answer (or to giving up)' }),
  responseExcerpt: Nullable(Type.String({ description: "the first 500 characters of the endpoint's answer" })),
  error: Nullable(Type.String({ description: 'why it was not delivered' })),
  sentAt: DateTime,
});
export type WebhookTestResult = Static<typeof WebhookTestResult>;
