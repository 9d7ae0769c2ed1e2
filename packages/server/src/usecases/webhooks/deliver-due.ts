import { showEventId } from '../../domain/opaque-ids.ts';
import type { Clock } from '../../domain/ports.ts';
import { attemptTimeoutMs, CLAIM_LEASE_MS, DISABLE_AFTER_MS, retryDelayMs } from '../../domain/webhooks/schedule.ts';
import { WebhookSecretSealer } from '../../domain/webhooks/secret.ts';
import { webhookHeaders } from '../../domain/webhooks/sign.ts';
import type { Store } from '../../store/index.ts';
import type { ClaimedDelivery } from '../../store/webhooks-store.ts';
import type { WebhookAnswer, WebhookSender } from '../ports.ts';

export interface DeliverDeps { store: Store; clock: Clock; secret: string }
export interface DeliverOptions {
  sender: WebhookSender;
  /** Deliveries claimed (and sent in parallel) per run. */
  batch?: number;
  /** How long a claim holds a delivery (CAMBIO_WEBHOOK_LEASE_MS); after it a dead worker's claim is due again. */
  leaseMs?: number;
  /** The moment put in `webhook-timestamp`: the wall clock, which receivers compare with theirs. */
  wallClock?: () => Date;
  /** The jitter's randomness, in [0, 1). */
  random?: () => number;
}

/**
 * One run of the delivery worker: claims the due deliveries (others' claims skipped), makes one attempt
 * each and records it. Scheduling follows the injected clock. Returns how many attempts were made.
 */
export async function deliverDueWebhooks(deps: DeliverDeps, o: DeliverOptions): Promise<number> {
  const claimed = await deps.store.webhooks.claim(deps.clock.now(), o.leaseMs ?? CLAIM_LEASE_MS, o.batch ?? 8);
  const sealer = new WebhookSecretSealer(deps.secret);
  await Promise.all(claimed.map((c) => attemptOne(deps, o, sealer, c)));
  return claimed.length;
}

/** The event as it is POSTed: the same JSON as GET /api/v1/events shows it. */
export const webhookBody = (c: ClaimedDelivery, id: string): string =>
  JSON.stringify({ id, type: c.event.type, createdAt: c.event.createdAt.toISOString(), data: c.event.data });

async function attemptOne(deps: DeliverDeps, o: DeliverOptions, sealer: WebhookSecretSealer, c: ClaimedDelivery): Promise<void> {
  const row = { organizationId: c.organizationId, endpointId: c.endpointId };
  const startedAt = deps.clock.now();
  const t0 = performance.now();
  let answer: WebhookAnswer;
  try {
    const secrets = [sealer.open(c.secretSealed, row)];
    if (c.previousSecretSealed !== null && c.previousSecretUntil !== null && c.previousSecretUntil > startedAt) secrets.push(sealer.open(c.previousSecretSealed, row));
    // The event's id as GET /events shows it: the same on every retry and after a restart (the secret's).
    const id = showEventId(deps.secret, c.event.id);
    const body = webhookBody(c, id);
    const headers = webhookHeaders(secrets, id, (o.wallClock ?? (() => new Date()))(), body);
    answer = await o.sender.post({ url: c.url, headers, body, timeoutMs: attemptTimeoutMs(o.leaseMs ?? CLAIM_LEASE_MS) });
  } catch (e) {
    // Nothing was sent (e.g. a secret sealed under another CAMBIO_SECRET): a failed attempt like any other, logged.
    answer = { error: `not sent: ${e instanceof Error ? e.message : String(e)}`.slice(0, 300) };
  }
  const durationMs = Math.trunc(performance.now() - t0);
  const delivered = answer.statusCode !== undefined && answer.statusCode >= 200 && answer.statusCode < 300;
  const delay = delivered ? null : retryDelayMs(c.roundAttempt, (o.random ?? Math.random)());
  const retryAt = delay === null ? null : new Date(deps.clock.now().getTime() + delay);
  await deps.store.webhooks.finish(c, {
    startedAt, durationMs, statusCode: answer.statusCode ?? null,
    error: answer.error ?? (delivered ? null : `answered ${answer.statusCode}`),
  }, delivered, retryAt, DISABLE_AFTER_MS);
}
