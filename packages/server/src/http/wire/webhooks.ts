import type { WebhookDelivery as WireDelivery, WebhookEndpoint as WireEndpoint, WebhookHealth as WireHealth } from '@cambio/contract';
import { endpointView, type WebhookEndpoint } from '../../domain/webhooks/endpoint.ts';
import { showEventId } from '../../domain/opaque-ids.ts';
import type { EndpointHealth, WebhookDelivery } from '../../store/webhooks-store.ts';

export const endpointWire = (e: WebhookEndpoint): WireEndpoint => endpointView(e) as WireEndpoint;

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

/** A delivery as the client sees it; its event id as GET /events shows it (`secret`: the service's). */
export const deliveryWire =
  (secret: string) =>
  (d: WebhookDelivery): WireDelivery => ({
    eventId: showEventId(secret, d.eventId),
    eventType: d.eventType as WireDelivery['eventType'],
    state: d.state,
    attempts: d.attempts,
    nextAttemptAt: iso(d.nextAttemptAt),
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    lastAttemptAt: iso(d.lastAttemptAt),
    deliveredAt: iso(d.deliveredAt),
    createdAt: new Date(d.createdAt).toISOString(),
    log: d.log.map((a) => ({
      attempt: a.attempt,
      startedAt: new Date(a.startedAt).toISOString(),
      durationMs: a.durationMs,
      statusCode: a.statusCode,
      error: a.error,
    })),
  });

export const healthWire = (h: EndpointHealth, windowHours: number): WireHealth => ({
  windowHours,
  attempts: h.attempts,
  succeeded: h.succeeded,
  successRatePct: h.successRatePct,
  pending: h.pending,
  retrying: h.retrying,
  nextRetryAt: iso(h.nextRetryAt),
  lastSuccessAt: iso(h.lastSuccessAt),
  lastFailure:
    h.lastFailure === null
      ? null
      : { at: h.lastFailure.at.toISOString(), statusCode: h.lastFailure.statusCode, error: h.lastFailure.error },
});
