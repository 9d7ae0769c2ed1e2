import type {
  CreateWebhook,
  EventType,
  WebhookDelivery as WireDelivery,
  WebhookEndpoint as WireEndpoint,
  WebhookHealth as WireHealth,
  WebhookTestResult as WireTestResult,
  WebhookWithSecret as WireWithSecret,
} from '@cambio/contract';
import type { WriteOptions } from '../action-key.ts';
import type { Transport } from '../http.ts';
import type { ListParams, Page } from '../paginate.ts';
import { iterateList, listPage } from './list.ts';

export type WebhookEndpoint = WireEndpoint;
/** What creating or rotating answers: the endpoint and its `whsec_…` signing secret, shown only here. */
export type WebhookWithSecret = WireWithSecret;
export type WebhookDelivery = WireDelivery;
/** How an endpoint is doing: attempts and successes over 24 hours, what waits, the next retry, the last failure. */
export type WebhookHealth = WireHealth;
export type WebhookEventType = EventType;
export type CreateWebhookParams = CreateWebhook;
/** How an endpoint answered a test event: `state` delivered (2xx) or failed, its status, latency and the start of its answer. */
export type WebhookTestResult = WireTestResult;

/** What a replay answers: the delivery is pending again, due now. */
export interface WebhookReplay {
  eventId: string;
  state: 'pending';
  nextAttemptAt: string;
}

const at = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

/** Webhook endpoints of the organization (docs/api-guide.md), scope `portal:webhooks`. */
export class WebhooksResource {
  constructor(private readonly t: Transport) {}

  /**
   * `POST /api/v1/webhooks`. The answer's `secret` (`whsec_…`) is shown only here: keep it to verify
   * deliveries with `verifyWebhook`. It carries an Idempotency-Key (the caller's, or a fresh one, the same on
   * every retry), so a lost response is re-sent and gets the kept answer (with the same secret) instead of
   * registering a second endpoint.
   */
  async create(p: CreateWebhookParams, opts: WriteOptions = {}): Promise<WebhookWithSecret> {
    const body = { url: p.url, ...(p.types !== undefined ? { types: p.types } : {}) };
    return (await this.t.write<WebhookWithSecret>({ method: 'POST', path: '/webhooks', body }, opts, true)).data;
  }

  /** `GET /api/v1/webhooks`: every endpoint, newest first, never a secret. */
  async list(): Promise<WebhookEndpoint[]> {
    return (await this.t.get<WebhookEndpoint[]>('/webhooks')).data;
  }

  /** `GET /api/v1/webhooks/:id`: its status (`disabled` after failing for three days) and since when it fails. */
  async get(id: string): Promise<WebhookEndpoint> {
    return (await this.t.get<WebhookEndpoint>(at(id))).data;
  }

  /** `DELETE /api/v1/webhooks/:id`: nothing more is sent to it; answers the endpoint as it was. */
  async delete(id: string, opts: WriteOptions = {}): Promise<WebhookEndpoint> {
    return (await this.t.write<WebhookEndpoint>({ method: 'DELETE', path: at(id) }, opts)).data;
  }

  /**
   * `POST /api/v1/webhooks/:id/rotate-secret`: a new secret, shown only here; for 24 hours every
   * attempt carries both signatures (`previousSecretUntil`). Idempotency-Key as `create`.
   */
  async rotateSecret(id: string, opts: WriteOptions = {}): Promise<WebhookWithSecret> {
    return (await this.t.write<WebhookWithSecret>({ method: 'POST', path: `${at(id)}/rotate-secret`, body: {} }, opts, true)).data;
  }

  /** `POST /api/v1/webhooks/:id/enable`: a disabled endpoint again; its pending deliveries are due at once. */
  async enable(id: string, opts: WriteOptions = {}): Promise<WebhookEndpoint> {
    return (await this.t.write<WebhookEndpoint>({ method: 'POST', path: `${at(id)}/enable`, body: {} }, opts, true)).data;
  }

  /** `GET /api/v1/webhooks/:id/health`: the success rate over 24 hours, deliveries pending and retrying, the last failure. */
  async health(id: string): Promise<WebhookHealth> {
    return (await this.t.get<WebhookHealth>(`${at(id)}/health`)).data;
  }

  /** `GET /api/v1/webhooks/:id/deliveries`: one page, newest first, each with its attempts. */
  deliveries(id: string, params: ListParams = {}): Promise<Page<WebhookDelivery>> {
    return listPage<WebhookDelivery>(this.t, `${at(id)}/deliveries`, params);
  }

  iterateDeliveries(id: string, opts: { limit?: number } = {}): AsyncGenerator<WebhookDelivery, void, undefined> {
    return iterateList<WebhookDelivery>(this.t, `${at(id)}/deliveries`, opts);
  }

  /**
   * `POST /api/v1/webhooks/:id/test` (sandbox only; 404 in production): sends a signed `webhook.test` event
   * to the endpoint now and answers how it answered. Never re-sent by the SDK: each call is one more test event.
   */
  async test(id: string): Promise<WebhookTestResult> {
    return (await this.t.write<WebhookTestResult>({ method: 'POST', path: `${at(id)}/test`, body: {} })).data;
  }

  /** `POST /api/v1/webhooks/:id/deliveries/:eventId/replay`: sends the event again now, same `webhook-id`. */
  async replay(id: string, eventId: string, opts: WriteOptions = {}): Promise<WebhookReplay> {
    const path = `${at(id)}/deliveries/${encodeURIComponent(eventId)}/replay`;
    return (await this.t.write<WebhookReplay>({ method: 'POST', path, body: {} }, opts, true)).data;
  }
}
